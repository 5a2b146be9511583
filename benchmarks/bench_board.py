"""Board widget benchmark: key-press-to-screen-update time for cursor moves on a full board.

Run: ``python benchmarks/bench_board.py [--presses N] [--seed S] [--size WxH ...]``. Figures go to
docs/tui-board.md (and docs/performance.md).

What is measured, per key press, on a board with every tile of a seeded 2-player random game placed
(72 tiles less any set aside), shown by :class:`~carcnet.tui.widgets.board.BoardView` in a headless
Textual app at each terminal size:

* **start**: the moment a ``Key`` event is handed to the app's driver queue, as a terminal driver does
  when the key arrives;
* **end**: the moment the next screen update has been composed *and* encoded into the escape sequence
  a terminal would receive (``CompositorUpdate.render_segments``; the headless driver skips this
  step, so the benchmark does it itself and counts it).

That span holds Textual's key dispatch, the binding and action, the cursor watcher, the widget's
``render_line`` calls for the dirty region (two tiles; the whole view when the camera follows the
cursor and scrolls), compositing, and the encoding.

Textual paints on a 60-a-second frame clock (``TEXTUAL_FPS``): an update after an idle spell is
painted at once, but one that comes while the clock is still counting down from the last frame
waits for the next tick (up to about two frame periods after that frame). Presses are spaced by
``--interval`` (default 50 ms, typing speed), which keeps the clock out of the figure: it is the work
done. At key auto-repeat rates (``--interval 0.025``) about a third of the presses wait for the clock
and the p90 rises to about 13 ms while the median stays; that is Textual's pacing, not the board.
The app is not driven by ``Pilot.pause`` between presses, since that paints outside the clock.

The cursor walks a snake over the whole board (right along a row, down, left along the next row, …),
so some presses only move the cursor and some also scroll the view; both kinds are reported, and
the first ``--warmup`` presses (filling the caches) are left out. Two scenes: the finished game
(``over``), and the same board one tile short with the last tile to place (``place``: the positions
where it fits are shaded and its ghost follows the cursor); and the finished game on the game's board
screen (``inspect``: the board beside the scoreboard and the inspector, which names the features of
the tile under the cursor at every press and outlines one of them on the board, issue 15), beside
the same screen with the inspector idle (``screen``: the board is narrower there, so more presses
scroll it).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from textual import constants, events
from textual.app import App, ComposeResult

from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase
from carcnet.tui.app import STYLESHEET
from carcnet.tui.screens.board_screen import BoardScreen
from carcnet.tui.widgets.board import BoardView

TARGET_MS = 10.0
FRAME = 1 / constants.MAX_FPS


def full_game(seed: int, stop_before_last: bool = False) -> Game:
    """A seeded random 2-player game played to the end (or up to placing its last tile)."""
    game = Game(GameSetup(players=2, seed=seed))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        if stop_before_last and game.phase is Phase.PLACE_TILE and game.tiles_left == 0:
            break
        game.apply(bot.choose(game.view()))
    return game


class BenchApp(App[None]):
    """Just the board, full screen; or with *inspector*, the game's board screen: the board, the
    scoreboard, and the inspector following the cursor and outlining a feature of every tile it is on."""

    CSS_PATH = STYLESHEET

    def __init__(self, game: Game, screen: str = "") -> None:
        super().__init__()
        self.game = game
        self.screen_kind = screen

    def compose(self) -> ComposeResult:
        if not self.screen_kind:
            yield BoardView(self.game, ["red", "blue"])

    def on_mount(self) -> None:
        if self.screen_kind:
            screen = BoardScreen(self.game, ["Ann", "Bob"], ["red", "blue"])
            if self.screen_kind == "screen":  # the same screen with the inspector idle, to compare
                screen.refresh_inspector = lambda *args, **kwargs: None  # type: ignore[method-assign]
            self.push_screen(screen)


def snake(board: BoardView) -> list[str]:
    """Keys walking the cursor over every position of the board's bounds, row by row."""
    min_x, min_y, max_x, max_y = board._view.bounds
    keys: list[str] = []
    cursor = board.cursor
    keys += ["left"] * (cursor.x - min_x) + ["up"] * (cursor.y - min_y)
    width = max_x - min_x
    for row in range(max_y - min_y + 1):
        keys += ["right" if row % 2 == 0 else "left"] * width
        keys.append("down")
    return keys


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def measure(
    game: Game, size: tuple[int, int], presses: int, warmup: int, interval: float, screen: str = ""
) -> dict[str, list[float]]:
    """Milliseconds from key to encoded screen update, split by whether the view scrolled."""
    app = BenchApp(game, screen)
    results: dict[str, list[float]] = {"all": [], "move": [], "scroll": []}
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen.query_one(BoardView)
        board.focus()
        await pilot.pause()
        driver = app._driver
        assert driver is not None
        frames: list[float] = []
        painted = asyncio.Event()
        display = app._display

        def timed_display(screen, renderable) -> None:
            if renderable is not None:
                renderable.render_segments(app.console)  # what the terminal would be sent
                frames.append(time.perf_counter())
                painted.set()
            display(screen, renderable)

        app._display = timed_display  # type: ignore[method-assign]
        path = snake(board)
        keys = (path * (1 + (presses + warmup) // max(1, len(path))))[: presses + warmup]
        for i, key in enumerate(keys):
            frames.clear()
            painted.clear()
            before = board.scroll_offset
            event = events.Key(key, None)
            event.set_sender(app)
            start = time.perf_counter()
            driver.send_message(event)
            try:
                await asyncio.wait_for(painted.wait(), 2.0)
            except TimeoutError:
                continue  # the cursor did not move (the edge of the board): no update to time
            elapsed = (frames[0] - start) * 1000
            await asyncio.sleep(max(0.0, start + interval - time.perf_counter()))
            if i >= warmup:
                results["all"].append(elapsed)
                results["scroll" if board.scroll_offset != before else "move"].append(elapsed)
        app._display = display  # type: ignore[method-assign]
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=300, help="timed key presses per scene and size")
    parser.add_argument("--warmup", type=int, default=30, help="untimed presses first")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random game")
    parser.add_argument("--size", action="append", default=None, help="terminal WxH (repeatable)")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds from one press to the next")
    args = parser.parse_args(argv)
    sizes = [tuple(int(n) for n in s.split("x")) for s in (args.size or ["80x24", "200x60"])]
    print(
        f"carcnet board benchmark: Python {sys.version.split()[0]}, seed {args.seed}, "
        f"{args.presses} timed presses per row (after {args.warmup} untimed), one every {args.interval * 1000:.0f} ms"
    )
    print("key press -> screen update encoded for the terminal, milliseconds")
    print(
        f"{'scene':<7}{'size':>8}{'tiles':>7}  {'median':>7}{'p90':>7}{'max':>7}   "
        f"{'move only (n, median)':>22}   {'with scroll (n, median)':>24}"
    )
    worst_median = 0.0
    for scene in ("over", "place", "screen", "inspect"):
        game = full_game(args.seed, stop_before_last=scene == "place")
        tiles = len(game.board.tiles)
        for size in sizes:
            screen = scene if scene in ("screen", "inspect") else ""
            r = asyncio.run(measure(game, size, args.presses, args.warmup, args.interval, screen))
            a = r["all"]
            med = statistics.median(a)
            worst_median = max(worst_median, med)
            mv = f"{len(r['move'])}, {statistics.median(r['move']):.2f}" if r["move"] else "-"
            sc = f"{len(r['scroll'])}, {statistics.median(r['scroll']):.2f}" if r["scroll"] else "-"
            print(
                f"{scene:<7}{size[0]:>4}x{size[1]:<3}{tiles:>7}  {med:>7.2f}{percentile(a, 90):>7.2f}"
                f"{max(a):>7.2f}   {mv:>22}   {sc:>24}"
            )
    verdict = "met" if worst_median < TARGET_MS else "NOT met"
    print(f"target: median under {TARGET_MS:.0f} ms -> {verdict} (worst median {worst_median:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
