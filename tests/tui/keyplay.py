"""Whole games played by keys in the interface, for the pilot tests of the expansions (The Abbot, Inns
& Cathedrals, Traders & Builders, Hills & Sheep): bounded polls of the pilot, never fixed sleeps.

A *plan* says which keys a person presses at each deployment (``plan.keys(screen)``); tiles are
placed with Tab + Enter (the nearest legal position) unless a *place* coroutine says otherwise."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from carcnet.engine import Phase, PlaceTile, parse_move
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.game import GameScreen

#: Seconds any one wait may take at most.
LIMIT = 60.0


class Plan(Protocol):
    def keys(self, screen: GameScreen) -> list[str]:
        """The keys of this deployment."""
        ...


async def until(pilot, predicate: Callable[[], bool], what: str, timeout: float = LIMIT) -> None:  # type: ignore[no-untyped-def]
    """Polls the pilot until *predicate* holds; fails naming *what* after *timeout* seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)


async def new_local_game(pilot, app: CarcnetApp, *options: str) -> GameScreen:  # type: ignore[no-untyped-def]
    """From the home screen: ``n``, the rule checkboxes *options* ticked (``"abbot"``, ``"inns"``…),
    Ctrl+S; the game screen once it shows."""
    from textual.widgets import Checkbox

    from carcnet.tui.screens.setup import NewGameScreen

    await pilot.press("n")
    await pilot.pause()
    setup = app.screen
    assert isinstance(setup, NewGameScreen)
    for option in options:
        setup.query_one(f"#{option}", Checkbox).value = True
    await pilot.pause()
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def place_by_keys(pilot, screen: GameScreen, move: str) -> None:  # type: ignore[no-untyped-def]
    """The placement *move* (its text, ``place PDW -1,0 0``) by keys: Tab to its position (bounded), r
    to its rotation, Enter; returns once the tile is placed (deploying, or its turn to confirm)."""
    wanted = parse_move(move)
    assert isinstance(wanted, PlaceTile)
    board = screen.board
    await until(pilot, lambda: screen.my_turn() and board.interactive and bool(board.open_positions),
                "a tile to place")
    for _ in range(40):
        if board.cursor == wanted.position:
            break
        await pilot.press("tab")
    assert board.cursor == wanted.position, (board.cursor, move)
    for _ in range(4):
        if board.rotation == wanted.rotation:
            break
        await pilot.press("r")
    assert board.rotation == wanted.rotation
    await pilot.press("enter")
    await until(pilot, lambda: board.deploying or screen.confirming, "the tile placed")


async def play_to_the_end(
    pilot, app: CarcnetApp, screen: GameScreen, plan: Plan,  # type: ignore[no-untyped-def]
    place: Callable[[GameScreen], Awaitable[None]] | None = None, turns: int = 200,
    answer: Callable[[GameScreen], str] | None = None,
) -> None:
    """The person's turns by keys until the final scores show (at most *turns* of them): the tile
    placed (Tab + Enter, or *place*), the deployment by *plan*, Enter to confirm; an expansion's
    question answered by the key *answer* gives (by default ``y``: the builder's second tile taken,
    ``s`` for the flock's question: the flock scored)."""
    for _ in range(turns):
        await until(pilot, lambda: isinstance(app.screen, FinalScreen) or (
            screen.my_turn() and (screen.board.interactive or screen.table.game.phase is Phase.STEP)),
                    "the person's turn or the end")
        if isinstance(app.screen, FinalScreen):
            return
        game = screen.table.game
        moves = len(game.moves)
        if game.phase is Phase.STEP:  # a question inside the turn: one key answers it
            flock = game.steps[0].words() == "flock"
            await pilot.press(("s" if flock else "y") if answer is None else answer(screen))
            await until(pilot, lambda moves=moves: len(screen.table.game.moves) > moves, "the answer made")  # type: ignore[misc]
            continue
        if game.phase is Phase.PLACE_TILE:  # placed, shown, not played until the turn is confirmed
            if place is None:
                await pilot.press("tab", "enter")
            else:
                await place(screen)
            # tried; with no figure to deploy anywhere the turn goes straight to its confirmation
            await until(pilot, lambda: screen.confirming or screen.shown_game.phase is not Phase.PLACE_TILE,
                        "the tile tried")
            assert len(screen.table.game.moves) == moves
        if not screen.confirming:
            await pilot.press(*plan.keys(screen))
        await until(pilot, lambda: screen.confirming, "the turn to confirm")
        assert len(screen.table.game.moves) == moves and "Enter confirms" in str(screen.status.render())
        await pilot.press("enter")
        await until(pilot, lambda moves=moves: len(screen.table.game.moves) > moves or isinstance(app.screen, FinalScreen),  # type: ignore[misc]
                    "the move to be made")
    raise AssertionError("the game did not end")


def burst(app: CarcnetApp, keys: list[str]) -> None:  # type: ignore[type-arg]
    """Sends *keys* to *app* as a terminal delivers a burst of typing: each key queued at once, none
    waiting for the one before it to be handled (``pilot.press`` waits after every key)."""
    import unicodedata

    from textual import events

    driver = app._driver
    assert driver is not None
    for key in keys:
        char = key if len(key) == 1 else {"space": " "}.get(key)
        if key == "backspace":
            char = "\x7f"
        elif char is None:
            try:
                char = unicodedata.lookup(key.replace("_", " ").upper())
            except KeyError:
                char = None
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)


def settled(app: CarcnetApp) -> bool:  # type: ignore[type-arg]
    """Whether the app and every widget of its screen have handled every message sent to them (a
    burst's keys all handled, bubbled ones too)."""
    pumps = [app, app.screen, *app.screen.walk_children()]
    return all(pump._message_queue.empty() for pump in pumps)
