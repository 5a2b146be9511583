"""What a player reads at a network table is in a player's words: no line of the status line, the
notes, a refusal, the headless output or ``carcnet lan`` names the protocol (``wire.md``, its sections
``§``, a ``quorum``, ``withholding``). The protocol's account goes to the connection log and to
``--verbose`` (lines beginning ``log:``) instead.

The lines are made by the real code in the situations that make them: tables joined by in-memory
wires (no sockets), a seat away at its turn, a draw value that does not come, moves not confirmed,
a seat not handed over, a laptop cut off, a table split in two; the headless output by the
function the command line prints with; ``carcnet lan`` over records given in place of mDNS. A
static check looks at every string literal of the modules that speak to players.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import contextlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.app import App

from carcnet.bots import make_bot
from carcnet.cli import main
from carcnet.cli import network as cli_network
from carcnet.engine import HandOver, Rules, SkipMeeple
from carcnet.log import LogEntry
from carcnet.net import SignedEntry
from carcnet.net.adverts import GameAd
from carcnet.net.lobby import Hosting, Seating, SeatPlan
from carcnet.net.replica import SetAside
from carcnet.net.sync import MemoryLog, SyncSession
from carcnet.table import NetTable, TableError
from carcnet.table.aside import aside_note
from carcnet.table.farewell import farewell
from carcnet.table.words import unconfirmed
from carcnet.tui.app import STYLESHEET
from carcnet.tui.running import TableRun
from carcnet.tui.screens.game import GameScreen

from ..net.loopback import GAME, MemoryWire, counter_random, identity, make_header, pump, seat_key
from ..net.test_presence import drawing, player, snap

#: What no player-facing line may hold (case-insensitive): the protocol's files and terms, and a section
#: number (``§5.9``; a ``§`` alone is the board's glyph of a dragon tile, The Princess & the Dragon).
PROTOCOL = re.compile(r"wire\.md|quorum|withholding|§\s*\d", re.IGNORECASE)
ROOT = Path(__file__).parents[2]


def _protocol_free(lines: list[str]) -> list[str]:
    """The lines of *lines* that name the protocol, but for ``--verbose``'s own (``log:``)."""
    return [line for line in lines if PROTOCOL.search(line) and not line.lstrip().startswith("log:")]


class ScreenApp(App[None]):
    """One screen over an empty app, styled as carcnet's."""

    CSS_PATH = STYLESHEET

    def __init__(self, screen_factory: Callable[[], object]) -> None:
        super().__init__()
        self._factory = screen_factory

    def on_mount(self) -> None:
        self.push_screen(self._factory())  # type: ignore[arg-type]


async def _status_lines(table: NetTable, steps: list[Callable[[], None]]) -> list[str]:
    """The game screen's status line at *table* before and after each of *steps*."""
    table.running = True  # shown as running; no sockets are opened
    app = ScreenApp(lambda: GameScreen(TableRun(table)))
    lines = []
    async with app.run_test(size=(240, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for step in [lambda: None, *steps]:
            step()
            screen.redraw()
            await pilot.pause()
            lines.append(str(screen.query_one("#status").render()))
    return lines


def _headless(table: NetTable, capsys: pytest.CaptureFixture[str], *, verbose: bool = False) -> Callable[[], list[str]]:
    """The headless output of *table* (the command line's own printer): a function that prints what
    changed since it was last called and returns those lines."""
    show = cli_network._progress(table, argparse.Namespace(moves=True, verbose=verbose))

    def lines() -> list[str]:
        show("peer")
        return capsys.readouterr().out.splitlines()

    return lines


async def _next_note(table: NetTable, task: Callable[[], object]) -> str:
    """Runs the table's coroutine *task()* until it makes a note (told by the table's ``note``
    change, bounded by 10 s); returns that note."""
    made = asyncio.Event()
    before = table.notes_made

    def heard(change: str) -> None:
        if change == "note":
            made.set()

    table.add_listener(heard)
    running = asyncio.ensure_future(task())  # type: ignore[arg-type]
    try:
        async with asyncio.timeout(10):
            await made.wait()
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        table.remove_listener(heard)
    assert table.notes_made == before + 1, table.notes[before - table.notes_made:]
    return table.notes[-1]


# ---------------------------------------------------------------------- tables in memory


def _drawing_table() -> tuple[NetTable, MemoryWire]:
    """Ann's table of three seats with table draws (Ann, Bob over an in-memory wire, Ann's greedy
    bot), started: Ann's laptop, whose turn comes first."""
    plan = [SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("bot", "Robo", "green", "greedy")]
    hosting = Hosting(name="Friday game", options=Rules(), plan=plan, random=counter_random("host"), created=0,
                      auto_start=False)
    host = SyncSession(game=GAME, name="Ann", identity=identity("Ann"), lobby=hosting)
    bob_key = identity("Bob")
    bob = SyncSession(game=GAME, name="Bob", identity=bob_key, lobby=Seating(name="Bob", key=bob_key, colour="blue"))
    wire = MemoryWire(bob, host)
    pump(wire)
    host.apply_lobby(hosting.start(links=host.connections.open_links(), now=host.clock()))
    pump(wire)
    table = NetTable(host, kind="host", listen=None, discovery=False, game_name="Friday game",
                     bot_names={2: "greedy"})
    return table, wire


def _tables(players: int, seats: dict[int, list[int]] | None = None) -> tuple[list[NetTable], dict[tuple[int, int], MemoryWire]]:
    """*players* laptops (named after their first seat's ``Seat<i>``), all connected; laptop *i* plays
    ``seats[i]`` (default: seat *i* alone), its identity its first seat's key."""
    seats = seats or {i: [i] for i in range(players)}
    header = make_header(sum(len(s) for s in seats.values()))
    sessions = [SyncSession(game=GAME, name=f"P{i}", identity=seat_key(seats[i][0]), header=header,
                            seats={s: seat_key(s) for s in seats[i]}, persistence=MemoryLog())
                for i in range(players)]
    tables = [NetTable(s, kind="player", listen=None, discovery=False) for s in sessions]
    wires = {(a, b): MemoryWire(sessions[a], sessions[b]) for a in range(players) for b in range(a + 1, players)}
    pump(*wires.values(), rounds=50)
    return tables, wires


def _play_until(tables: list[NetTable], wires: dict[tuple[int, int], MemoryWire], seat: int) -> None:
    """Plays (greedy bots, each seat at its own laptop) until it is *seat*'s turn to place."""
    bots = {}
    for _ in range(60):
        game = tables[0].game
        assert game is not None
        if game.seat == seat and game.placed is None:
            return
        table = next(t for t in tables if game.seat in t.session.seats)
        bot = bots.setdefault(game.seat, make_bot("greedy", game.seat))
        table.session.submit(bot.choose(game.view()))
        pump(*wires.values(), rounds=50)
    raise AssertionError("never the seat's turn")


def _lose(tables: list[NetTable], wires: dict[tuple[int, int], MemoryWire], a: int, b: int,
          reason: str = "timeout") -> None:
    """The link between laptops *a* and *b* ends: *a* times it out or says ``bye`` *reason*."""
    wire = wires.pop((min(a, b), max(a, b)))
    link = wire.a if a < b else wire.b
    if reason == "timeout":
        tables[a].session.connections.time_out(link, "heartbeat")
    else:
        tables[a].session.connections.close_link(link, reason)
    wire.pump()


# ---------------------------------------------------------------------- the situations


@pytest.mark.asyncio
async def test_a_draw_value_that_does_not_come_is_said_in_a_players_words(capsys) -> None:
    """Bob's laptop is there but his part of the draw does not come: the status line, the note, the
    headless lines and the handover that follows say so without the protocol; the connection log and
    ``--verbose`` keep the protocol's account (wire.md §5.7)."""
    table, wire = _drawing_table()
    table.reveal_wait = 0.0
    session, game = table.session, table.game
    assert game is not None
    headless, verbose = _headless(table, capsys), _headless(table, capsys, verbose=True)
    said = headless() + verbose()
    for _ in range(2):  # Ann places and deploys; Bob does not hear of it
        session.submit(make_bot("greedy", 0).choose(game.view()))
    wire.connector.connections.send_heartbeat(wire.a)  # Bob's laptop is alive, and sends no value
    wire.b.receive_data(wire.a.data_to_send())
    assert table.withholding() == [1]
    note = await _next_note(table, table._watch_withholding)
    assert note == "Waiting for Bob's part of the draw: Bob counts as away until it comes"
    logged = [e.message for e in session.connections.events if e.code == "note"]
    assert any("§5.7" in m and "withholding" in m for m in logged), logged
    said += headless()
    in_log = verbose()
    assert any(line.startswith("log: info note") and "§5.7" in line for line in in_log), in_log
    said += in_log

    status = await _status_lines(table, [lambda: table.hand_over(1, "greedy")])
    assert "Bob's part of the draw has not come. Wait, or let a bot play for Bob [b]" in status[0], status
    assert table.draws_known_to() == "you"
    assert "only your laptop draws the tiles now, so it can know them before they are drawn" in status[1], status
    said += status + table.notes + headless() + verbose()
    assert not _protocol_free(said), _protocol_free(said)


@pytest.mark.asyncio
async def test_a_seat_away_at_its_turn_a_laptop_cut_off_and_its_refusals(capsys) -> None:
    """Three laptops; P2's loses both links (one times out, one says bye): at P0 the seat to play is
    away (the status line offers a bot, the headless lines name it); P2 is cut off, refuses to hand a
    seat over and says why its bot takeover waits; every line is in a player's words."""
    tables, wires = _tables(3)
    _play_until(tables, wires, 2)
    p0, _p1, p2 = tables
    p0_lines = _headless(p0, capsys)
    said = p0_lines()
    _lose(tables, wires, 2, 0)
    _lose(tables, wires, 2, 1, reason="shutdown")
    assert p2.cut_off and 2 in p0.away()
    said += p0_lines()
    assert "Away: Seat2" in said
    status = await _status_lines(p0, [])
    assert "Seat2's laptop is gone. Wait, or let a bot play for Seat2 [b]" in status[0], status
    with pytest.raises(TableError) as refused:  # not the seat to play
        p2.hand_over(0, "greedy")
    said += [str(refused.value)]
    game = p2.game
    assert game is not None
    while game.seat == 2:  # P2 plays its own turn, cut off; then seat 0's laptop is away from it
        p2.session.submit(make_bot("greedy", 2).choose(game.view()))
    assert p2.to_play == 0 and 0 in p2.away()
    with pytest.raises(TableError) as refused:  # a cut-off laptop gives no seat away
        p2.hand_over(0, "greedy")
    said += [str(refused.value)]
    p2.takeover = 0.0
    note = await _next_note(p2, p2._take_over_bot_seats)
    assert note == "Not taking Seat0's seat over: this laptop is cut off from the table"
    said += await _status_lines(p2, []) + p0.notes + p2.notes
    assert "You are cut off from the table: no other player is connected to this laptop" in p2.notes
    assert not _protocol_free(said), _protocol_free(said)


@pytest.mark.asyncio
async def test_the_small_side_of_a_split_and_its_moves_not_confirmed(capsys) -> None:
    """Five seats on four laptops, P0 playing seats 0 and 1. P0's moves that the others have not heard
    of are not confirmed by them (the status line names them); then the table splits 2 | 3, and P0's
    side may not give the other side's seats away: its refusal and its bot takeover's words."""
    tables, wires = _tables(4, {0: [0, 1], 1: [2], 2: [3], 3: [4]})
    p0 = tables[0]
    game = p0.game
    assert game is not None
    bots = [make_bot("greedy", s) for s in range(2)]
    for _ in range(4):  # seats 0 and 1 play their turns at P0; nobody hears of them yet
        game = p0.game
        assert game is not None
        p0.session.submit(bots[game.seat].choose(game.view()))
    pending = unconfirmed(p0)
    assert pending.pending >= 3 and pending.own == 4 and {2, 3, 4} <= set(pending.by)
    status = await _status_lines(p0, [])
    assert "your last 4 moves are not confirmed by Seat2, Seat3, Seat4 yet" in status[0], status
    said = status + p0.notes

    tables, wires = _tables(5)
    _play_until(tables, wires, 2)
    for a in (0, 1):
        for b in (2, 3, 4):
            _lose(tables, wires, a, b)
    p0 = tables[0]
    assert 2 in p0.away() and not p0.cut_off and not p0.may_hand_over(2)
    with pytest.raises(TableError, match="in touch with too few of the other players") as refused:
        p0.hand_over(2, "greedy")
    said += [str(refused.value)]
    assert any("§5.6" in e.message for e in p0.session.connections.events if e.code == "note")
    p0.takeover = 0.0
    said += [await _next_note(p0, p0._take_over_bot_seats)]
    said += await _status_lines(p0, []) + p0.notes + _headless(p0, capsys)()
    assert not _protocol_free(said), _protocol_free(said)


@pytest.mark.parametrize(
    ("case", "snapshot", "seat"),
    [
        ("the seat to play, present", snap(links=(player(1), player(2)), to_play=2), 2),
        ("not the seat to play", snap(links=(player(1),), to_play=1), 2),
        ("played here", snap(links=(player(1),), to_play=0), 0),
        ("no such seat", snap(links=(player(1),), to_play=0), 7),
        ("handed over already", snap(links=(player(1),), to_play=1, handovers=(None, "greedy", None)), 1),
        ("a draw: its value came", drawing(links=(player(1), player(2))), 2),
        ("a draw: within the wait", drawing(links=(player(1), player(2)), reveal_wait=60.0), 1),
        ("a draw: heard from too few", drawing(links=(player(1, beat=100.0), player(2, beat=100.0))), 1),
        ("a draw: cut off", drawing(), 1),
    ],
)
def test_every_refusal_to_hand_a_seat_over_is_in_a_players_words(case, snapshot, seat) -> None:
    refusal = snapshot.handover_refusal(seat, now=130.0)
    assert refusal is not None and not PROTOCOL.search(refusal), (case, refusal)


@pytest.mark.parametrize("reason", [None, "quit", "shutdown", "game-over", "timeout", "closed", "duplicate",
                                    "desync", "forbidden", "unexpected-message"])
@pytest.mark.parametrize("role", ["player", "host", "spectator", None])
@pytest.mark.parametrize("started", [True, False])
def test_every_farewell_is_in_a_players_words(reason, role, started) -> None:
    line, _account = farewell("Bob", reason, role=role, started=started)
    assert not PROTOCOL.search(line) and (reason is None or reason not in line), line


@pytest.mark.parametrize("where", ["g.carclog.aside", None])
@pytest.mark.parametrize("mine", [{1}, {0}, {1, 2}])
def test_every_set_aside_line_is_in_a_players_words(where, mine) -> None:
    entries = tuple(SignedEntry(LogEntry(45 + i, seat, SkipMeeple(), bytes(32), None), bytes(64))
                    for i, seat in enumerate((1, 2)))
    instead = SignedEntry(LogEntry(45, 0, HandOver(1, "greedy", 0), bytes(32), None), bytes(64))
    line = aside_note(SetAside(45, entries, instead, where, (0, 2)), ["Ann", "Bob", "Cleo"], mine)
    assert line.startswith("Set aside:") and not PROTOCOL.search(line) and "seq" not in line, line
    assert str(instead.entry.move) not in line and "Bob's seat given to a greedy bot" in line, line
    assert str(SkipMeeple()) not in line.replace("no figure", ""), line
    assert ("your move" in line) == bool(mine & {1, 2})


# ---------------------------------------------------------------------- carcnet lan


def _ad(game: str, peer: str, role: str, key: int, address: str, port: int = 7000, **kw) -> GameAd:
    return GameAd(game=game, name=kw.pop("name", "Friday game"), phase=kw.pop("phase", "playing"),
                  seats_taken=3, seats_total=3, peer=peer, role=role, key=bytes([key]) * 32, port=port,
                  addresses=(address,), **kw)


FRIDAY, OTHER, NEWER = "3f2a9c1b" * 4, "9c1b3f2a" * 4, "1b3f2a9c" * 4
#: What mDNS finds (as ``_browse`` gives it: confirmed first): Friday's game from each of its three
#: laptops, Ann's twice (restarted before her old record expired), and a record of it under a key
#: that never answered; another game nobody answers for; a game of a newer carcnet.
RECORDS = [
    (_ad(FRIDAY, "Ann", "player", 1, "192.168.1.20"), "confirmed", ("192.168.1.20", 7000)),
    (_ad(FRIDAY, "Ann", "player", 1, "192.168.1.20", 7003), "confirmed", ("192.168.1.20", 7003)),
    (_ad(FRIDAY, "Bob", "player", 2, "192.168.1.21"), "confirmed", ("192.168.1.21", 7000)),
    (_ad(FRIDAY, "Cleo", "player", 3, "192.168.1.22"), "checking", None),
    (_ad(OTHER, "Dan", "host", 4, "192.168.1.23", name="Gone game", phase="lobby"), "failed", None),
    (_ad(FRIDAY, "Mallory", "player", 9, "192.168.1.66"), "failed", None),
    (_ad(NEWER, "Eve", "host", 5, "192.168.1.24", name="Newer game", phase="lobby", proto=999), "unchecked", None),
]


@pytest.fixture
def found(monkeypatch) -> Iterator[None]:
    async def browse(_seconds, _interfaces):
        return list(RECORDS)

    monkeypatch.setattr(cli_network, "_browse", browse)
    yield


def test_carcnet_lan_lists_each_game_once(found, capsys) -> None:
    """A game is advertised by each of its laptops that accepts connections, and again by one that
    restarted before its old record expired: ``carcnet lan`` lists it once, by its confirmed record;
    ``--json`` gives one object per game with its records."""
    assert main(["lan", "--wait", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    games = [line for line in lines[1:] if not line.startswith("log:")]
    assert [sum(game in line for line in games) for game in (FRIDAY, OTHER, NEWER)] == [1, 1, 1], lines
    assert lines[1].startswith("Friday game") and "Ann" in lines[1] and "192.168.1.20:7000" in lines[1]
    assert main(["lan", "--wait", "0", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(g["game"], g["peer"], g["confirmed"], len(g["records"])) for g in listed] == [
        (FRIDAY, "Ann", True, 5), (OTHER, "Dan", False, 1), (NEWER, "Eve", False, 1)]


def test_carcnet_lan_speaks_a_players_words_and_its_verbose_the_protocols(found, capsys) -> None:
    assert main(["lan", "--wait", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "(not answering)" in lines[2] and "(another version of carcnet)" in lines[3], lines
    assert not any("unconfirmed" in line or "key" in line for line in lines), lines
    assert main(["lan", "--wait", "0", "--verbose"]) == 0
    verbose = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("log:") for line in verbose) == len(RECORDS)
    assert any("unconfirmed: no answer with its key" in line for line in verbose), verbose
    assert not _protocol_free(lines + verbose)


# ---------------------------------------------------------------------- the modules' strings

#: The modules whose strings reach the people at a network table.
PLAYER_FACING = [
    "carcnet/table/base.py", "carcnet/table/netview.py", "carcnet/table/lan.py", "carcnet/table/farewell.py",
    "carcnet/table/aside.py", "carcnet/table/words.py", "carcnet/table/timekeeper.py", "carcnet/table/advert.py",
    "carcnet/net/presence.py",
    "carcnet/cli/network.py", "carcnet/tui/screens/game.py", "carcnet/tui/screens/lobby.py",
    "carcnet/tui/screens/browse.py", "carcnet/tui/screens/leave.py", "carcnet/tui/screens/live_replay.py",
    "carcnet/tui/screens/host_setup.py", "carcnet/tui/screens/help.py",
]
#: Calls whose strings are the protocol's account, never a player's: the connection log, the program's log.
FOR_THE_LOG = {"record", "debug", "info", "warning", "error", "exception"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        for statement in getattr(node, "body", []) if isinstance(getattr(node, "body", None), list) else []:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def _for_the_log(tree: ast.AST) -> set[int]:
    """The string constants of *tree* inside what goes to a log: :data:`FOR_THE_LOG` calls; the
    account beside a line (the second argument of ``_note`` and ``details``, a ``detail`` keyword, the
    second item of a line returned as ``(line, account)``, a name ``account``); a function whose name
    says it makes a detail."""
    found: set[int] = set()
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in FOR_THE_LOG:
                roots.append(node)
            elif name in ("_note", "details"):
                roots.extend(node.args[1:])
            roots.extend(k.value for k in node.keywords if k.arg == "detail")
        elif isinstance(node, ast.FunctionDef) and "detail" in node.name:
            roots.append(node)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
            roots.append(node.value.elts[1])
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "account" for t in node.targets):
            roots.append(node.value)
    for root in roots:
        found.update(id(n) for n in ast.walk(root) if isinstance(n, ast.Constant))
    return found


@pytest.mark.parametrize("module", PLAYER_FACING)
def test_no_string_for_players_names_the_protocol(module: str) -> None:
    """Every string literal of a module that speaks to players, but for docstrings and what goes to
    a log, is free of the protocol's names."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    skip = _docstrings(tree) | _for_the_log(tree)
    bad = [(node.lineno, node.value) for node in ast.walk(tree)
           if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
           and PROTOCOL.search(node.value) and not node.value.lstrip().startswith("log:")]
    assert not bad, bad
