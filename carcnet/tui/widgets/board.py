"""Provides the board widget: the tiles, the cursor, the drawn tile's ghost, figures and deploy spots.

:class:`BoardView` is a Line API widget (a :class:`~textual.scroll_view.ScrollView` with
``render_line``). It reads a :class:`~carcnet.engine.Game` and never changes it: choices leave as
messages (:class:`BoardView.PlacementChosen`, :class:`BoardView.DeployChosen`) for the screen to turn
into moves. Call :meth:`BoardView.refresh_game` after the game changes.

The widget is one of three parts: it holds what the board shows (the game read once per change, the
cursor, the deploy spots), the keys, the mouse and the messages, and says how each position looks
(:meth:`BoardView._look`); :class:`~carcnet.tui.widgets.camera.Camera` works out where positions lie
in the scrolled view; :class:`~carcnet.tui.widgets.painting.BoardPainter` paints the looks into
cached pieces and lines (:mod:`carcnet.tui.render` draws each tile into cells), so a cursor move
re-renders two tiles and rebuilds lines from cached pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from carcnet.engine import DeployMeeple, Figure, Game, Phase, Position, SegmentKind
from carcnet.engine.expansions import abbot
from carcnet.i18n import N_, _
from carcnet.log.values import COLOURS
from carcnet.tui.parts import DEPLOY_ORDER, face
from carcnet.tui.render import UNICODE_GLYPHS, Glyphs, Zoom, figure_letter, shepherds, tile_art
from carcnet.tui.widgets.camera import Camera
from carcnet.tui.widgets.painting import TERRAIN, BoardPainter, Look, art_line
from carcnet.tui.words import why_not_here

if TYPE_CHECKING:
    from carcnet.engine import PlacedTile

__all__ = ["TERRAIN", "BoardView", "art_line", "auto_zoom", "read_board"]

def figure_label(figure: Figure) -> str:
    """What the footer calls ``a`` when it switches to *figure*, in the language in use (its face's
    label, :mod:`carcnet.tui.parts`)."""
    return face(figure).label()


@dataclass(frozen=True, slots=True)
class _View:
    """What the board shows apart from the cursor, recomputed by :meth:`BoardView.refresh_game`."""

    tiles: dict[Position, PlacedTile]
    open: dict[Position, tuple[int, ...]]  # where the drawn tile fits -> its distinct legal rotations
    figures: dict[Position, tuple[tuple[int, int, str], ...]]
    flocks: dict[Position, tuple[tuple[int, int, int], ...]]  # a shepherd's sheep: (segment, seat, sheep)
    marks: dict[Position, int]
    drawn: str | None
    placed: Position | None
    spots: tuple[int, ...]  # deploy spots of a meeple (segments of the placed tile), numbered from 1
    # deploy spots of the other figures: the abbot (cloisters and gardens of the placed tile), the
    # large meeple (Inns & Cathedrals), the builder and the pig (Traders & Builders), the shepherd
    # (Hills & Sheep)
    other_spots: dict[Figure, tuple[int, ...]]
    abbot_at: Position | None  # while deploying: where the seat to move has its abbot (it may recall it)
    bounds: tuple[int, int, int, int]  # min x, min y, max x, max y of the tiles and the frontier


def read_board(game: Game) -> _View:
    """What the board shows of *game*: its tiles, where the drawn tile fits, the figures (Hills &
    Sheep's shepherds with their sheep too), each seat's last tile, the deploy spots of the tile just
    placed, and the bounds of the tiles and their frontier."""
    tiles = {t.position: t for t in game.board.tiles.values()}
    open_: dict[Position, tuple[int, ...]] = {}
    if game.phase is Phase.PLACE_TILE:
        open_ = {p.position: p.rotations for p in game.legal_placements()}
    figures: dict[Position, list[tuple[int, int, str]]] = {}
    for seat, figure, position, segment in game.figures():
        kind = tiles[position].variant.segments[segment].kind
        figures.setdefault(position, []).append((segment, seat, figure_letter(kind, figure)))
    flocks: dict[Position, list[tuple[int, int, int]]] = {}
    for seat, position, segment, sheep in shepherds(game):  # kept by the expansion, not among figures()
        figures.setdefault(position, []).append((segment, seat, figure_letter(SegmentKind.FIELD, Figure.SHEPHERD)))
        flocks.setdefault(position, []).append((segment, seat, sheep))
    marks = {p: seat for seat, p in enumerate(game.last_placed) if p is not None}
    placed = game.placed
    # every deployment, an expansion's figure that game.deploy_options() leaves out (the shepherd) too
    options = [m for m in game.legal_moves() if isinstance(m, DeployMeeple)] if placed is not None else []
    spots = tuple(m.segment for m in options if m.figure is Figure.MEEPLE)
    other_spots = {f: tuple(m.segment for m in options if m.figure is f) for f in DEPLOY_ORDER[1:]}
    abbot_at = abbot.abbot_at(game, game.seat) if placed is not None and game.setup.rules.abbot else None
    xs = [p.x for p in tiles]
    ys = [p.y for p in tiles]
    bounds = (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
    return _View(
        tiles,
        open_,
        {p: tuple(f) for p, f in figures.items()},
        {p: tuple(f) for p, f in flocks.items()},
        marks,
        game.drawn,
        placed,
        spots,
        other_spots,
        abbot_at,
        bounds,
    )


class BoardView(ScrollView, can_focus=True):
    """The board: pan, zoom, choose where the drawn tile goes, and where a meeple goes.

    Lifecycle: construct with a game; mount; after every change to the game call
    :meth:`refresh_game`. In ``Phase.PLACE_TILE`` the positions where the drawn tile fits are shaded,
    and the drawn tile's ghost follows the cursor where it fits; Enter or a click posts
    :class:`PlacementChosen`. In ``Phase.DEPLOY`` the legal spots of the placed tile for the chosen
    :attr:`figure` are numbered, the feature of the spot chosen (Tab, the mouse) is highlighted
    (:class:`SpotSelected` tells the deploy list), and a digit, Enter on the chosen spot or a click
    posts :class:`DeployChosen` (Space or 0 posts a skip). With The Abbot, ``a`` switches
    the figure between the meeple and the abbot (only the abbot's spots when no meeple is left) and
    ``A`` posts :class:`RecallChosen` (the abbot taken back instead of deploying; The Abbot rules).
    Set :attr:`interactive` to False while another seat is to move: the board then only shows.

    Args:
        game: The game to show (read only).
        colours: Seat colours in seat order (names such as ``"red"`` or ``#rrggbb``).
        glyphs: The glyph set (:data:`~carcnet.tui.render.ASCII_GLYPHS` for plain terminals).
        zoom: The initial zoom; ``None``: chosen for the size of the board's area when it is first laid
            out (:func:`auto_zoom`: the detailed zoom at 80 × 24 and 120 × 40, the large one on a big
            terminal).
        interactive: Whether the local player is to move.
        name: The widget's name.
        id: The widget's id.
        classes: CSS classes.
    """

    DEFAULT_CSS = """
    BoardView {
        background: #0f130f;
        scrollbar-size: 0 0;
    }
    BoardView:focus {
        background-tint: transparent;
    }
    """
    """Dark ground around the tiles; no scrollbars (the board pans by keys and mouse drag)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(0,-1)", N_("Move"), group=Binding.Group(N_("Move"), compact=True), key_display="↑"),
        Binding("down", "move(0,1)", N_("Move"), group=Binding.Group(N_("Move"), compact=True), key_display="↓"),
        Binding("left", "move(-1,0)", N_("Move"), group=Binding.Group(N_("Move"), compact=True), key_display="←"),
        Binding("right", "move(1,0)", N_("Move"), group=Binding.Group(N_("Move"), compact=True), key_display="→"),
        Binding("k", "move_by_letter(0,-1)", N_("Move"), show=False),
        Binding("j", "move_by_letter(0,1)", N_("Move"), show=False),
        Binding("h", "move_by_letter(-1,0)", N_("Move"), show=False),
        Binding("l", "move_by_letter(1,0)", N_("Move"), show=False),
        Binding("tab", "cycle(1)", N_("Next"), tooltip=N_("Next position (nearest first) or next meeple spot")),
        Binding("shift+tab", "cycle(-1)", N_("Previous"), show=False),
        Binding("r", "rotate", N_("Rotate"), tooltip=N_("Turn the drawn tile to its next legal rotation")),
        Binding("enter", "place", N_("Place"), tooltip=N_("Place the drawn tile at the cursor")),
        Binding("enter", "deploy_selected", N_("Deploy"), tooltip=N_("Deploy on the selected spot (skip if none)")),
        Binding("1", "deploy(1)", N_("Spot"), key_display="1-9", tooltip=N_("Deploy a meeple on spot N")),
        # hidden (the footer's "1-9 Spot" says them); Textual's own key panel shows them untranslated
        *(Binding(str(n), f"deploy({n})", f"Deploy {n}", show=False) for n in range(2, 10)),
        Binding("0,space", "skip", N_("Skip"), key_display="0", tooltip=N_("Deploy no meeple")),
        Binding("a", "switch_figure", N_("Other figure"),
                tooltip=N_("Deploy another figure that has a spot: the meeple, the large meeple, the abbot, "
                           "the builder, the pig, the shepherd")),
        Binding("A", "recall", N_("Recall abbot"), tooltip=N_("Take the abbot back and score its cloister or garden now")),
        Binding("z", "toggle_zoom", N_("Zoom"), tooltip=N_("The next zoom: large, detailed, overview, then large again")),
        Binding("plus,equals_sign", "zoom(1)", N_("Zoom in"), show=False),
        Binding("minus", "zoom(-1)", N_("Zoom out"), show=False),
        Binding("c", "centre", N_("Centre"), tooltip=N_("Centre on the cursor; again: on the start tile")),
    ]
    """Arrows/hjkl move the cursor (the view follows); Tab/Shift+Tab cycle the positions where the
    tile fits, nearest the cursor first (while deploying: the meeple spots); ``r`` turns the drawn
    tile through its legal rotations; Enter places or deploys; 1–9 deploy on a numbered spot, 0 or
    Space skip; ``z`` the next zoom (smaller, then the largest again), ``+`` / ``-`` zoom in and out (the
    mouse wheel too, on the tile under the mouse); ``c`` centres on the cursor, then on the start tile."""

    cursor: var[Position] = var(Position(0, 0), always_update=False)
    """The position under the cursor."""
    rotation: var[int] = var(0)
    """Rotation of the drawn tile's ghost at the cursor (a legal one where the tile fits there)."""
    zoom: var[Zoom] = var(Zoom.DETAILED)
    """How large tiles are drawn."""
    spot: var[int] = var(0)
    """While deploying: index of the selected spot in the numbered spots (0 is spot 1)."""
    spot_chosen: var[bool] = var(False)
    """While deploying: whether the player chose the selected spot (Tab, a click, hovering); only
    then is its feature highlighted, and Enter deploys on it."""
    figure: var[Figure] = var(Figure.MEEPLE)
    """While deploying: the figure the numbered spots are for (the meeple, or with The Abbot the abbot)."""
    interactive: var[bool] = var(True)
    """Whether the local player is to move: shows placements and spots, and posts choices."""
    letter_keys: var[bool] = var(True)
    """Whether h, j, k and l move the cursor as the arrows do: not for a spectator, whose typing
    (a line meant for the table) moved the board's cursor."""

    @dataclass
    class PlacementChosen(Message):
        """Posted when the player chooses where the drawn tile goes (Enter, or a click on a shaded
        position). The board does not change the game: the screen submits the move."""

        position: Position
        """Where the tile goes."""
        rotation: int
        """Clockwise quarter turns (one of the legal rotations there)."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    @dataclass
    class DeployChosen(Message):
        """Posted when the player chooses a spot (a digit, Enter or a click), or none (0, Space, or
        Enter when no spot is legal)."""

        segment: int | None
        """Segment of the placed tile to deploy on, or None to skip."""
        figure: Figure = Figure.MEEPLE
        """Which figure goes there: the meeple, or the abbot."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    @dataclass
    class SpotSelected(Message):
        """Posted when the spot Enter would deploy on changes (Tab, a digit, the mouse), or none is
        chosen any more (a new tile, the other figure): for the deploy list beside the board."""

        spot: int | None
        """The index of the chosen spot in :attr:`BoardView.spots`, or ``None``."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    @dataclass
    class FigureSwitched(Message):
        """Posted when the figure the numbered spots are for changes (``a``, The Abbot)."""

        figure: Figure
        """The figure now chosen."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    @dataclass
    class RecallChosen(Message):
        """Posted when the player takes the abbot back instead of deploying (``A``; The Abbot)."""

        position: Position
        """Where the abbot stands."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    @dataclass
    class Hovered(Message):
        """Posted when the mouse comes over another segment of a placed tile (for the inspector)."""

        position: Position
        """The tile under the mouse."""
        segment: int
        """The segment of it under the mouse."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    @dataclass
    class CursorMoved(Message):
        """Posted when the cursor moves or the ghost turns (for a status line or tile preview)."""

        position: Position
        """The position under the cursor."""
        rotation: int | None
        """The ghost's rotation when the drawn tile fits there, else None."""
        board: BoardView | None = field(default=None, repr=False, compare=False)
        """The board that posted it."""

        @property
        def control(self) -> BoardView | None:
            """The board that posted it (for ``@on`` selectors)."""
            return self.board

    def __init__(
        self,
        game: Game,
        colours: tuple[str, ...] | list[str] = COLOURS,
        *,
        glyphs: Glyphs = UNICODE_GLYPHS,
        zoom: Zoom | None = Zoom.DETAILED,
        interactive: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._game = game
        self._glyphs = glyphs
        #: The painting of the positions' looks into lines, with its caches.
        self.painter = BoardPainter(colours, glyphs)
        #: Where the positions lie in the scrolled view.
        self._camera = Camera()
        self._cycle: tuple[list[Position], int] | None = None
        self._cycle_at: Position | None = None
        self._highlight: dict[Position, frozenset[int]] = {}
        self._outline: dict[Position, frozenset[int]] = {}
        self._hovered: tuple[Position, int] | None = None
        self._drag: tuple[int, int, float, float] | None = None
        self._dragged = False
        self._centred = False
        self._view = read_board(game)
        self._offered_before: tuple[bool, ...] = ()
        self.set_reactive(BoardView.zoom, Zoom.DETAILED if zoom is None else zoom)
        self._auto_zoom = zoom is None
        #: Where a wheel zoom keeps the board still: (board x, board y, widget col, widget row).
        self._zoom_anchor: tuple[float, float, int, int] | None = None
        self.set_reactive(BoardView.interactive, interactive)
        start = self._view.placed or Position(0, 0)
        self.set_reactive(BoardView.cursor, start)
        self.set_reactive(BoardView.rotation, self._rotation_for(start, 0))
        self._update_highlight()

    # ------------------------------------------------------------------ public API

    @property
    def game(self) -> Game:
        """The game shown."""
        return self._game

    @property
    def spots(self) -> tuple[int, ...]:
        """While deploying: the segments of the placed tile the chosen :attr:`figure` may go on, as
        numbered (spot 1 first); empty otherwise."""
        if not self.interactive:
            return ()
        return self._figure_spots(self.figure)

    def _figure_spots(self, figure: Figure) -> tuple[int, ...]:
        view = self._view
        return view.spots if figure is Figure.MEEPLE else view.other_spots.get(figure, ())

    def next_figure(self) -> Figure | None:
        """While deploying: the figure ``a`` switches to, or ``None`` when no other has a spot."""
        ready = self.figures_to_deploy()
        if len(ready) < 2:
            return None
        at = ready.index(self.figure) if self.figure in ready else -1
        return ready[(at + 1) % len(ready)]

    def figures_to_deploy(self) -> tuple[Figure, ...]:
        """While deploying: the figures that have a spot on the placed tile, in the order ``a``
        switches through them (the meeple, the large meeple, the abbot, the builder, the pig, the
        shepherd)."""
        if not self.interactive or self._view.placed is None:
            return ()
        return tuple(f for f in DEPLOY_ORDER if self._figure_spots(f))

    @property
    def chosen_spot(self) -> int | None:
        """While deploying: the index in :attr:`spots` of the spot Enter deploys on (the one
        highlighted), or ``None`` before the player chose one."""
        spots = self.spots
        return min(self.spot, len(spots) - 1) if spots and self.spot_chosen else None

    @property
    def deploying(self) -> bool:
        """Whether the player to move here is deploying on the tile just placed."""
        return self.interactive and self._view.placed is not None

    @property
    def recall_at(self) -> Position | None:
        """While deploying: where the abbot of the seat to move stands, if it may take it back."""
        return self._view.abbot_at if self.interactive else None

    @property
    def open_positions(self) -> dict[Position, tuple[int, ...]]:
        """Where the drawn tile fits, with its distinct legal rotations there (empty when not placing)."""
        return dict(self._view.open) if self.interactive else {}

    @property
    def camera(self) -> Position:
        """The position at the centre of the view."""
        return self._camera.centre(self.zoom, (self.scroll_x, self.scroll_y), self.size)

    def refresh_game(self, game: Game | None = None) -> None:
        """Re-reads the game (or shows *game* instead) after it changed, and redraws.

        While deploying, the cursor goes to the placed tile; the selected spot goes back to spot 1.
        """
        if game is not None:
            self._game = game
        old = self._view
        self._view = read_board(self._game)
        self._cycle = None
        self._forget_all()
        self._layout()
        if self._view.placed is not None and self._view.placed != old.placed:
            self.set_reactive(BoardView.cursor, self._view.placed)
            self.set_reactive(BoardView.spot, 0)
            self.spot_chosen = False  # Enter deploys only once a spot is chosen: not on a second Enter
            # the meeple first; else the first figure with a spot (the large meeple, the abbot)
            ready = self.figures_to_deploy()
            self.set_reactive(BoardView.figure, ready[0] if ready else Figure.MEEPLE)
            self._follow()
        self.set_reactive(BoardView.rotation, self._rotation_for(self.cursor, self.rotation))
        self._update_highlight()
        self.refresh()
        offered = self._offered()
        if offered != self._offered_before:  # the footer is recomposed only when its keys change
            self._offered_before = offered
            self.refresh_bindings()
        self._post_cursor()

    def set_outline(self, segments: dict[Position, frozenset[int]]) -> None:
        """Outlines *segments* (position → segments of the tile there) with the highlight the deploy
        spot's feature gets (the inspector's feature); ``{}`` outlines nothing. Redraws only the
        positions that change."""
        old = self._outline
        if segments == old:
            return
        self._outline = segments
        changed = [p for p in old.keys() | segments.keys() if old.get(p) != segments.get(p)]
        self._forget(*changed)
        self.refresh(*(self.tile_region(p) for p in changed))

    def centre_on(self, position: Position) -> None:
        """Scrolls so that *position* is in the middle of the view (as far as the board allows)."""
        self._scroll(*self._camera.centring(self.zoom, self.size, position))

    def position_at(self, col: int, row: int) -> Position:
        """The board position under the widget's content cell *col*, *row*."""
        return self._camera.position_at(self.zoom, (self.scroll_x, self.scroll_y), col, row)

    def tile_region(self, position: Position) -> Region:
        """Where *position* is drawn, in the widget's content coordinates (may lie outside the view)."""
        return self._camera.tile_region(self.zoom, (self.scroll_x, self.scroll_y), position)

    # ------------------------------------------------------------------ reading the game

    def _rotation_for(self, position: Position, wanted: int) -> int:
        """*wanted* if the drawn tile fits at *position* that way, else its first legal rotation there."""
        rotations = self._view.open.get(position)
        if not rotations or wanted in rotations:
            return wanted
        return rotations[0]

    def _update_highlight(self) -> None:
        """Works out the feature of the chosen deploy spot, by position (none before a choice: the
        spot highlighted is the one Enter deploys on)."""
        self._highlight = {}
        spots = self.spots
        placed = self._view.placed
        chosen = self.chosen_spot
        if chosen is None or placed is None:
            return
        segment = spots[chosen]
        by_position: dict[Position, set[int]] = {}
        for position, seg in self._game.feature_segments(placed, segment):
            by_position.setdefault(position, set()).add(seg)
        self._highlight = {p: frozenset(s) for p, s in by_position.items()}

    # ------------------------------------------------------------------ geometry and camera

    def _layout(self) -> None:
        """Sets the virtual size: the board plus a margin of a view, so any position can be centred;
        where the board grew left or up, the view scrolls with it (once it has been centred)."""
        self.virtual_size, (dx, dy) = self._camera.lay_out(self.zoom, self.size, self._view.bounds)
        if dx or dy:
            self.painter.forget_lines()
            if self._centred:
                self._scroll(self.scroll_x + dx, self.scroll_y + dy)

    def _scroll(self, x: float, y: float) -> None:
        """Scrolls at once (no animation), whether or not scrollbars are shown."""
        self.scroll_to(x, y, animate=False, force=True)

    def _follow(self) -> None:
        """Scrolls as little as needed to keep the cursor in view, a tile clear of the edge if it fits."""
        if not self.size:
            return
        target = self._camera.following(self.zoom, self.size, (self.scroll_x, self.scroll_y), self.cursor)
        if target is not None:
            self._scroll(*target)

    def _in_bounds(self, position: Position) -> Position:
        return Camera.within(self._view.bounds, position)

    def _forget(self, *positions: Position) -> None:
        """Drops what is painted of *positions*, and the lines they are on."""
        self.painter.forget(positions, self.zoom, self._camera.origin)

    def _forget_all(self) -> None:
        self.painter.forget_all()

    # ------------------------------------------------------------------ events

    def on_resize(self, event: events.Resize) -> None:
        centre = self.cursor if not self._centred else self.camera
        if self._auto_zoom:
            self._auto_zoom = False
            self.set_reactive(BoardView.zoom, auto_zoom(event.size.width, event.size.height))
            self._forget_all()
        self._layout()
        self.centre_on(centre)
        self._centred = True

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """The wheel zooms in on the tile under the mouse (Shift+wheel scrolls, as elsewhere)."""
        if event.shift:
            return  # Textual's own handler scrolls
        event.prevent_default()
        event.stop()
        self.zoom_at(1, event)

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """The wheel zooms out, keeping the tile under the mouse under it (Shift+wheel scrolls)."""
        if event.shift:
            return
        event.prevent_default()
        event.stop()
        self.zoom_at(-1, event)

    def zoom_at(self, step: int, event: events.MouseEvent | None = None) -> None:
        """Zooms in (*step* 1) or out (-1) keeping the point of the board under the mouse (*event*)
        under it; without an event, or at the last zoom, as ``+`` and ``-`` do."""
        new = Zoom(min(max(self.zoom + step, min(Zoom)), max(Zoom)))
        if new == self.zoom:
            return
        offset = event.get_content_offset(self) if event is not None else None
        if offset is not None:
            self._zoom_anchor = self._camera.anchor(self.zoom, (self.scroll_x, self.scroll_y), offset.x, offset.y)
        self.zoom = new

    def watch_cursor(self, old: Position, new: Position) -> None:
        self.set_reactive(BoardView.rotation, self._rotation_for(new, self.rotation))
        self._forget(old, new)
        self.refresh(self.tile_region(old), self.tile_region(new))
        self._follow()
        self._post_cursor()

    def watch_rotation(self, old: int, new: int) -> None:
        self._forget(self.cursor)
        self.refresh(self.tile_region(self.cursor))
        self._post_cursor()

    def watch_zoom(self, old: Zoom, new: Zoom) -> None:
        self._forget_all()
        self._layout()
        anchor, self._zoom_anchor = self._zoom_anchor, None
        if anchor is None:
            self.centre_on(self.cursor)
        else:  # the wheel: the point under the mouse stays under it
            self._scroll(*self._camera.anchored(new, anchor))
        self.refresh()

    def watch_spot(self, old: int, new: int) -> None:
        self._spot_changed()

    def watch_spot_chosen(self, old: bool, new: bool) -> None:
        self._spot_changed()

    def _spot_changed(self) -> None:
        self._update_highlight()
        self._forget_all()
        self.refresh()
        self.post_message(self.SpotSelected(self.chosen_spot, self))

    def watch_figure(self, old: Figure, new: Figure) -> None:
        self.spot = 0
        self.spot_chosen = False
        self._update_highlight()
        self._forget_all()
        self.refresh()
        self.refresh_bindings()
        self.post_message(self.FigureSwitched(new, self))

    def watch_interactive(self, old: bool, new: bool) -> None:
        self._update_highlight()
        self._forget_all()
        self.refresh()
        self._offered_before = self._offered()
        self.refresh_bindings()

    def _post_cursor(self) -> None:
        rotation = self.rotation if self.cursor in self.open_positions else None
        self.post_message(self.CursorMoved(self.cursor, rotation, self))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if event.button == 1:
            self._drag = (event.screen_x, event.screen_y, self.scroll_x, self.scroll_y)
            self._dragged = False
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._drag is not None and event.button == 1:
            sx, sy, scroll_x, scroll_y = self._drag
            dx, dy = event.screen_x - sx, event.screen_y - sy
            if dx or dy:
                self._dragged = True
                self._scroll(scroll_x - dx, scroll_y - dy)
        elif self._drag is None and self.spots:
            hit = self._spot_at(event)
            if hit is not None:
                self.spot = self.spots.index(hit)
                self.spot_chosen = True
        elif self._drag is None:
            hovered = self._segment_at(event)
            if hovered is not None and hovered != self._hovered:
                self._hovered = hovered
                self.post_message(self.Hovered(hovered[0], hovered[1], self))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._drag is not None:
            self._drag = None
            self.release_mouse()

    def on_click(self, event: events.Click) -> None:
        if self._dragged:
            self._dragged = False
            return
        offset = event.get_content_offset(self)
        if offset is None or event.button != 1:
            return
        position = self.position_at(offset.x, offset.y)
        if self.spots:
            hit = self._spot_at(event)
            if hit is not None:
                self.spot = self.spots.index(hit)
                self.post_message(self.DeployChosen(hit, self.figure, self))
                return
        self.cursor = self._in_bounds(position)
        if position in self.open_positions:
            self.post_message(self.PlacementChosen(position, self.rotation, self))

    def _segment_at(self, event: events.MouseEvent) -> tuple[Position, int] | None:
        """The placed tile and its segment under the mouse, or ``None`` (no tile there)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        position = self.position_at(offset.x, offset.y)
        tile = self._view.tiles.get(position)
        if tile is None:
            return None
        region = self.tile_region(position)
        art = tile_art(tile.kind, tile.rotation, self.zoom, self._glyphs)
        segment = art.cell(offset.x - region.x, offset.y - region.y).segment
        return None if segment is None else (position, segment)

    def _spot_at(self, event: events.MouseEvent) -> int | None:
        """The deploy spot (segment) under the mouse: its number, or a cell of its segment."""
        offset = event.get_content_offset(self)
        placed = self._view.placed
        if offset is None or placed is None:
            return None
        if self.position_at(offset.x, offset.y) != placed:
            return None
        region = self.tile_region(placed)
        col, row = offset.x - region.x, offset.y - region.y
        tile = self._view.tiles[placed]
        art = tile_art(tile.kind, tile.rotation, self.zoom, self._glyphs)
        for segment in self.spots:
            if art.anchors[segment] == (col, row):
                return segment
        segment = art.cell(col, row).segment
        return segment if segment in self.spots else None

    # ------------------------------------------------------------------ actions

    def _offered(self) -> tuple[bool, ...]:
        """What :meth:`check_action` depends on: placing, deploying, the abbot's two choices."""
        view = self._view
        deploying = self.interactive and view.placed is not None
        return (
            self.interactive and bool(view.open),
            deploying,
            deploying and len(self.figures_to_deploy()) > 1,
            deploying and view.abbot_at is not None,
        )

    def binding_description(self, action: str) -> str | None:
        """What a key does now, for the footer: ``a`` names the figure it switches to (the large
        meeple in a game without The Abbot, the abbot, the meeple again…)."""
        if action == "switch_figure":
            nxt = self.next_figure()
            if nxt is not None:
                return figure_label(nxt)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Shows only the keys that do something in the current phase (from :meth:`_offered`)."""
        placing, deploying, switch, recall = self._offered()
        offered = {
            "rotate": placing,
            "place": placing,
            "deploy": deploying,
            "skip": deploying,
            "deploy_selected": deploying,
            "cycle": placing or deploying,
            "switch_figure": switch,
            "recall": recall,
            "move_by_letter": self.letter_keys,
        }
        return offered.get(action, True)

    def action_move(self, dx: int, dy: int) -> None:
        """Moves the cursor one position."""
        self.cursor = self._in_bounds(Position(self.cursor.x + dx, self.cursor.y + dy))

    def action_move_by_letter(self, dx: int, dy: int) -> None:
        """Moves the cursor one position by h, j, k or l (unless :attr:`letter_keys` is off)."""
        self.action_move(dx, dy)

    def action_cycle(self, step: int) -> None:
        """Next (*step* 1) or previous (-1) position where the tile fits, nearest the cursor first;
        while deploying, the next or previous meeple spot."""
        spots = self.spots
        if spots:
            if not self.spot_chosen:  # the first Tab picks spot 1 (Shift+Tab the last)
                self.spot = 0 if step > 0 else len(spots) - 1
                self.spot_chosen = True
                return
            self.spot = (self.spot + step) % len(spots)
            return
        open_ = self.open_positions
        if not open_:
            self.app.bell()
            return
        if self._cycle is None or self._cycle_at != self.cursor:
            origin = self.cursor
            order = sorted(open_, key=lambda p: ((p.x - origin.x) ** 2 + (p.y - origin.y) ** 2, p.y, p.x))
            self._cycle = (order, order.index(origin) if origin in open_ else -1)
        order, index = self._cycle
        index = len(order) - 1 if index < 0 and step < 0 else (index + step) % len(order)
        self._cycle = (order, index)
        self._cycle_at = order[index]
        self.cursor = order[index]

    def action_rotate(self) -> None:
        """Turns the ghost to the next legal rotation at the cursor (clockwise)."""
        rotations = self.open_positions.get(self.cursor)
        if not rotations or len(rotations) == 1:
            self.app.bell()
            return
        later = [r for r in rotations if r > self.rotation]
        self.rotation = later[0] if later else rotations[0]

    def action_place(self) -> None:
        """Places the drawn tile at the cursor with the ghost's rotation (if it fits there); else
        says why not."""
        if self.cursor in self.open_positions:
            self.post_message(self.PlacementChosen(self.cursor, self.rotation, self))
            return
        self.app.bell()
        self.notify(why_not_here(self._game, self.cursor), title=_("The tile cannot go there"),
                    severity="warning", timeout=4)

    def action_deploy_selected(self) -> None:
        """Deploys on the chosen spot, or skips when no spot is legal. Before a spot is chosen (Tab,
        a digit, a click) Enter deploys nothing and says how to choose, so that the Enter that placed
        the tile, pressed twice, cannot spend a meeple."""
        if self._view.placed is not None and self.interactive:
            spots = self.spots
            if spots and not self.spot_chosen:
                self.app.bell()
                self.notify(_("Choose a spot first: Tab or a click, then Enter; or a digit. 0 or Space deploys nothing."),
                            title=_("Deploy where?"), timeout=4)
                return
            self.post_message(self.DeployChosen(spots[self.spot] if spots else None, self.figure, self))

    def action_deploy(self, number: int) -> None:
        """Deploys the chosen figure on spot *number* (1-based)."""
        spots = self.spots
        if 1 <= number <= len(spots):
            self.spot = number - 1
            self.spot_chosen = True
            self.post_message(self.DeployChosen(spots[number - 1], self.figure, self))
        else:
            self.app.bell()

    def action_switch_figure(self) -> None:
        """Switches the figure to deploy to the next one with a spot: the meeple, the large meeple
        (Inns & Cathedrals), the abbot (The Abbot); the spots are numbered again for it."""
        nxt = self.next_figure()
        if nxt is None:
            self.app.bell()
            return
        self.figure = nxt

    def action_recall(self) -> None:
        """Takes the abbot back instead of deploying (The Abbot), where it stands on the board."""
        where = self.recall_at
        if where is None or self._view.placed is None:
            self.app.bell()
            return
        self.post_message(self.RecallChosen(where, self))

    def action_skip(self) -> None:
        """Deploys no meeple."""
        if self._view.placed is not None and self.interactive:
            self.post_message(self.DeployChosen(None, board=self))

    def action_toggle_zoom(self) -> None:
        """The next zoom, smaller: large, detailed, overview, then large again."""
        self.zoom = Zoom(self.zoom - 1) if self.zoom > min(Zoom) else max(Zoom)

    def action_zoom(self, step: int) -> None:
        """Zooms in (*step* 1) or out (-1)."""
        self.zoom = Zoom(min(max(self.zoom + step, min(Zoom)), max(Zoom)))

    def action_centre(self) -> None:
        """Centres the view on the cursor; if it already is, moves the cursor to the start tile."""
        if self.camera == self.cursor and self.cursor != Position(0, 0):
            self.cursor = Position(0, 0)
        self.centre_on(self.cursor)

    # ------------------------------------------------------------------ drawing

    def render_line(self, y: int) -> Strip:
        """One row of the view, painted from cached tile pieces (and cached itself until a tile on it
        changes, so vertical scrolling reuses lines): :class:`BoardPainter`."""
        scroll_x, scroll_y = self.scroll_offset
        return self.painter.line(scroll_y + y, scroll_x, self.size.width, self.zoom, self._camera.origin,
                                 self._look)

    def _look(self, position: Position) -> Look:
        """Everything that decides how a position looks, as a hashable key."""
        view = self._view
        zoom = self.zoom
        parity = (position.x + position.y) & 1
        cursor = position == self.cursor
        tile = view.tiles.get(position)
        interactive = self.interactive
        if tile is not None:
            deploying = interactive and position == view.placed
            spots = self.spots if deploying else ()
            return (
                "tile",
                zoom,
                tile.kind.letter,
                tile.rotation,
                parity,
                view.figures.get(position, ()),
                view.flocks.get(position, ()),
                self._highlight.get(position) or self._outline.get(position, frozenset()),
                spots,
                spots[min(self.spot, len(spots) - 1)] if spots else None,
                cursor,
                None if deploying else view.marks.get(position),
            )
        fits = interactive and position in view.open
        if cursor and fits and view.drawn is not None:
            return ("ghost", zoom, view.drawn, self.rotation, parity)
        return ("empty", zoom, fits, cursor, parity)


def auto_zoom(width: int, height: int) -> Zoom:
    """The zoom a board *width* × *height* cells large opens at: the large one where it shows at
    least 8 × 6 tiles (a terminal of about 140 × 45 with the side panel), else the detailed one (at
    80 × 24 and 120 × 40 the detailed zoom shows 5 × 4 and 9 × 7 tiles, the large one 3 × 3 and 6 × 5)."""
    lw, lh = Zoom.LARGE.size
    return Zoom.LARGE if width >= 8 * lw and height >= 6 * lh else Zoom.DETAILED
