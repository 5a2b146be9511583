"""Provides :class:`BoardScreen`: the layout shared by the game and replay screens: the board, a
side panel with the scoreboard, the inspector and the log, a status line and the footer."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from carcnet.engine import Game, Position
from carcnet.i18n import N_, _, pgettext
from carcnet.tui.render import ASCII_GLYPHS, UNICODE_GLYPHS, Glyphs
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.game_log import GameLog
from carcnet.tui.widgets.inspector import Inspector, outline, tile_features
from carcnet.tui.widgets.scoreboard import Scoreboard

__all__ = ["BoardScreen", "footer_first", "glyphs_named", "number_words"]


def footer_first(bindings: dict[str, ActiveBinding], actions: tuple[str, ...]) -> dict[str, ActiveBinding]:
    """*bindings* (a screen's active bindings, which its footer shows in order) with those of
    *actions* first, in that order: a narrow terminal cuts the footer's end, never its start."""
    first = {key: b for key, b in bindings.items() if b.binding.action in actions}
    first = dict(sorted(first.items(), key=lambda item: actions.index(item[1].binding.action)))
    return {**first, **{key: b for key, b in bindings.items() if key not in first}}


def number_words(value: float, spec: str = "g") -> str:
    """*value* formatted by *spec* (``g``: ``0.5``, ``2``; ``+.1f``: ``+3.5``) with the language's
    decimal mark (:func:`carcnet.i18n.decimal`'s).

    >>> number_words(0.5), number_words(2.0), number_words(3.46, "+.1f")
    ('0.5', '2', '+3.5')
    """
    return format(value, spec).replace(".", pgettext("decimal mark", "."))


def glyphs_named(name: str) -> Glyphs:
    """The glyph set of the settings' ``glyphs`` (``"unicode"`` or ``"ascii"``)."""
    return ASCII_GLYPHS if name == "ascii" else UNICODE_GLYPHS


class _InspectorBox(VerticalScroll):
    """The inspector's panel: a fixed height, scrolled; tells the screen when it scrolls (for the
    hint under it)."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        screen = self.screen
        if isinstance(screen, BoardScreen):
            screen.inspector_hint()


class BoardScreen(Screen[None]):
    """Board on the left, scoreboard, inspector and log on the right, status line below. Shows
    *game*; the subclass decides what changes it (a game session or a replay).

    The inspector (:class:`~carcnet.tui.widgets.inspector.Inspector`) follows the cursor and the
    mouse: on a placed tile it lists the tile's features and outlines the chosen one (``i`` the
    next); while the player deploys it lists the spots with their points instead.
    """

    MORE = N_("▼ more: mouse wheel, or i")
    """The title of the rule under the inspector when its text goes on below what the panel shows (in
    English: :meth:`inspector_hint` shows it in the language in use)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "inspect_next", N_("Next feature"), show=False,
                tooltip=N_("Outline the next feature of the tile under the cursor")),
    ]
    """``i`` outlines the next feature of the tile under the cursor."""

    def __init__(self, game: Game, names: list[str], colours: list[str], *, glyphs: Glyphs = UNICODE_GLYPHS) -> None:
        super().__init__()
        self.names = names
        self.colours = colours
        self.board = BoardView(game, colours, glyphs=glyphs, interactive=False, zoom=None, id="board")
        self.scoreboard = Scoreboard(names, colours, glyphs=glyphs, id="scoreboard")
        self.inspector = Inspector(names, colours, id="inspector")
        self.log_panel = GameLog(names, colours, id="log")
        self.status = Static("", id="status")
        #: The inspector's panel (it scrolls).
        self.box = _InspectorBox(id="inspector-box")
        #: What the inspector shows: (game, moves, position, chosen feature index), to skip redoing it.
        self._inspected: tuple[Game, int, Position, int] | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="side"):
                yield self.scoreboard
                with self.box:
                    yield self.inspector
                yield self.log_panel
        yield self.status
        yield KeyFooter()

    #: The actions the footer shows first, so that a narrow terminal never cuts them off.
    FOOTER_FIRST = ("help", "leave", "leave_network", "back", "confirm", "undo",
                    "step(1)", "step(-1)", "play", "speed(1)")  # the replay's own keys before the board's

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The active bindings (for the footer), :data:`FOOTER_FIRST` first: at 80 columns the footer
        dropped ``? Help`` and ``q Menu``, which came after the board's keys."""
        return footer_first(super().active_bindings, self.FOOTER_FIRST)

    def on_resize(self, event: events.Resize) -> None:
        """Fits the layout to the terminal: under 140 columns a compact footer
        without the palette hint (Ctrl+P still opens it), so that more keys stay shown; under 72 columns a narrower
        side panel, from 110 a wider one (the names on the scoreboard whole beside an expansion's
        figures and goods); under 30 rows a shorter inspector, so that the log keeps a few lines."""
        width, height = event.size
        footer = self.query_one(KeyFooter)
        footer.compact = width < 140
        footer.show_command_palette = width >= 140
        self.set_class(width < 72, "-narrow")
        self.set_class(width >= 110, "-wide")
        self.set_class(height < 30, "-short")

    def refresh_inspector(self, at: tuple[Position, int] | None = None, *, step: int = 0) -> None:
        """Brings the inspector up to date: the deploy choice while the player deploys, else the tile
        at the cursor (or *at*: the tile and segment under the mouse, whose feature is then chosen;
        *step* chooses the next feature)."""
        board = self.board
        game = board.game
        if board.deploying:
            self._inspected = None
            board.set_outline({})
            self.inspector.show_spots(game, board.spots, board.figure,
                                      other=board.next_figure(), recall=board.recall_at,
                                      selected=board.chosen_spot)
            self.call_after_refresh(self._scroll_inspector)
            return
        position = at[0] if at is not None else board.cursor
        before = self._inspected
        same_tile = before is not None and before[0] is game and before[1] == len(game.moves) and before[2] == position
        if same_tile and at is None and not step:
            return  # nothing changed: the cursor moved within the same tile, or a redraw
        features = tile_features(game, position)
        if features is None or not features.features:
            self._inspected = None
            board.set_outline({})
            self.inspector.clear()
            self.call_after_refresh(self._scroll_inspector)
            return
        count = len(features.features)
        chosen = before[3] if same_tile and before is not None else 0
        if at is not None:
            anchor = game.feature_at(position, at[1]).anchor
            chosen = next((i for i, (__, info) in enumerate(features.features) if info.anchor == anchor), chosen)
        chosen = (min(chosen, count - 1) + step) % count
        self._inspected = (game, len(game.moves), position, chosen)
        board.set_outline(outline(game, position, features.features[chosen][0]))
        self.inspector.show_tile(game, features, chosen)
        self.call_after_refresh(self._scroll_inspector)

    def _scroll_inspector(self) -> None:
        """Scrolls the inspector so that its chosen line (``▸``: the chosen feature, the selected
        spot) shows with the line above it, or to its top; then updates the hint under it."""
        box = self.box
        if box.max_scroll_y > 0 or box.scroll_y > 0:  # only a text taller than the panel scrolls
            box.scroll_to(y=max(0, self._chosen_row() - 1), animate=False, immediate=True)
        self.inspector_hint()

    def _chosen_row(self) -> int:
        """The row of the inspector's text, as wrapped to its width, of its first ``▸`` (0 if none)."""
        inspector = self.inspector
        width = inspector.content_region.width
        content = inspector.content
        plain = content.plain if isinstance(content, Text) else str(content)
        at = plain.find("▸")
        if at <= 0 or width <= 0:
            return 0
        lines = plain[:at].split("\n")
        rows = sum(len(Text(line).wrap(self.app.console, width)) or 1 for line in lines[:-1])
        return rows

    def inspector_hint(self) -> None:
        """Titles the rule under the inspector :data:`MORE` when its text goes on below what the panel
        shows, and clears it otherwise."""
        box = self.box
        title = _(self.MORE) if box.scroll_y < box.max_scroll_y else ""
        if self.log_panel.border_title != title:
            self.log_panel.border_title = title

    def action_inspect_next(self) -> None:
        """Outlines the next feature of the tile under the cursor."""
        self.refresh_inspector(step=1)

    @on(BoardView.SpotSelected)
    def _inspect_spot(self, message: BoardView.SpotSelected) -> None:
        if self.board.deploying:  # the deploy list marks the spot the board highlights
            self.refresh_inspector()

    @on(BoardView.CursorMoved)
    def _inspect_cursor(self, message: BoardView.CursorMoved) -> None:
        self.refresh_inspector()

    @on(BoardView.Hovered)
    def _inspect_hovered(self, message: BoardView.Hovered) -> None:
        self.refresh_inspector((message.position, message.segment))
