"""Provides the network commands of ``carcnet``: ``lan``, ``host``, ``join``, ``spectate``, ``bot`` and
``resume`` (registered by :func:`add_commands`).

``host``, ``join``, ``spectate`` and ``resume`` open the Textual interface on the matching screen, or
run without it with ``--headless`` (lines of progress on stdout, for scripts and tests). ``bot`` is
always headless: a peer that sits a bot at a table. ``lan`` lists the games found on the network.

Exit status (:mod:`carcnet.cli.common`): 0 the game ended (or was left) normally; 1 refused (no seat,
a bad log, a stopped game); 2 usage (bad arguments, no game found).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

from carcnet.bots import LEVELS
from carcnet.i18n import N_, _, joined, ngettext, pgettext

from .common import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    add_rule_options,
    number,
    on_quit_signals,
    rules_of,
    run_interface,
    shown,
    stopped_by,
)
from .common import fail as _fail
from .common import say as _say

__all__ = ["add_commands", "fill_defaults"]


def _phase_word(phase: str) -> str:
    """A game's phase as its record says it (``lobby``, ``playing``, ``finished``) in the player's
    language; another as it is."""
    words = {
        "lobby": pgettext("game phase", "lobby"),
        "playing": pgettext("game phase", "playing"),
        "finished": pgettext("game phase", "finished"),
    }
    return words.get(phase, phase)



def _found(ad: Any) -> str:
    """The line that says which game was found."""
    # Translators: {name} is the game's name (quoted), {phase} "lobby", "playing" or "finished",
    # {taken} of its {total} seats are taken, {peer} is the name of the laptop that advertises it.
    return ngettext("Found {name} ({phase}, {taken}/{total} seat) at {peer}",
                    "Found {name} ({phase}, {taken}/{total} seats) at {peer}", ad.seats_total).format(
        name=repr(ad.name), phase=_phase_word(ad.phase), taken=ad.seats_taken, total=ad.seats_total, peer=ad.peer)


# ---------------------------------------------------------------------- finding a game


async def _discovery_events(seconds: float, interfaces: list[str] | None) -> AsyncGenerator[Any, None]:
    """The mDNS discovery events of the next *seconds* (``GameFound``, ``GameUpdated``, ``GameLost``)."""
    from carcnet.net.discovery import Browser

    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    async with Browser(interfaces=interfaces) as browser:
        while (left := deadline - loop.time()) > 0:
            try:
                event = await browser.next_event(timeout=left)
            except TimeoutError:
                return
            if event is None:
                return
            yield event


async def _browse(seconds: float, interfaces: list[str] | None) -> list[tuple[Any, str, tuple[str, int] | None]]:
    """Every game advertised within *seconds*, as (GameAd, status, where its key proved itself): the
    records of this version are confirmed by a handshake as they come, paced as discovery.md §4 says
    (``net.finder``); confirmed tables first, then those still being checked, those of other versions
    and those nobody proved (``ProbePlan.listing``)."""
    from carcnet.net.adverts import ProbePlan
    from carcnet.net.discovery import Browser
    from carcnet.net.finder import find_tables

    plan = ProbePlan()
    async with Browser(interfaces=interfaces) as browser:
        await find_tables(browser, plan, seconds=seconds)
    return [(ad, status, plan.where(name)) for name, ad, status in plan.listing()]


async def _first_confirmed(
    args: argparse.Namespace, want: str, target: Any, dial: list[tuple[str, int]]
) -> tuple[str, list[tuple[str, int]]] | None:
    """The first game mDNS finds within ``--wait`` that fits (``_find``) and, unless the user gave an
    address, whose advertised key proves itself at its address (discovery.md §4). Records are probed
    as they come, paced (``net.finder``: 16 at a time, 4 at once and 8 a second to one address, a
    tarpit's records behind every other address, each probe at most 3 s), within ``--wait``: a flood
    of forged records cannot keep the real table from being tried (the browser queues what it cannot
    resolve at once, discovery.md §4)."""
    from carcnet.net.adverts import GameAd, ProbePlan
    from carcnet.net.discovery import Browser, GameFound, GameUpdated
    from carcnet.net.finder import find_tables

    def fits(ad: GameAd) -> bool:
        if not ad.compatible or (args.game and ad.game != args.game):
            return False
        if target is not None and ad.port != target.port:
            return False
        return want != "lobby" or ad.joinable

    if dial:  # the user gave the address: mDNS only tells the game id
        async for event in _discovery_events(args.wait, args.interface):
            if isinstance(event, GameFound | GameUpdated) and fits(event.ad):
                _say(_found(event.ad))
                return event.ad.game, dial
        return None
    plan = ProbePlan()
    found: list[tuple[GameAd, tuple[str, int]]] = []
    skipped = 0

    def settled(name: str, ad: GameAd, confirmed: bool) -> bool:
        nonlocal skipped
        where = plan.where(name)
        if confirmed and where is not None:
            found.append((ad, where))
            return True
        skipped += 1
        if skipped <= 3:  # a flood of forged records would fill the screen
            # Translators: {name} is a game's name (quoted), {peer} the laptop that advertises it.
            _say(_("Skipping {name} at {peer}: it does not answer as it claims (gone, or not what it says)").format(
                name=repr(ad.name), peer=ad.peer))
        return False

    async with Browser(interfaces=args.interface) as browser:
        await find_tables(browser, plan, seconds=args.wait, keep=fits, wanted=fits, on_settled=settled)
    if not found:
        return None
    ad, where = found[0]
    _say(_found(ad))
    return ad.game, [where]


async def _find(args: argparse.Namespace, *, want: str) -> tuple[str, list[tuple[str, int]]]:
    """The game id and addresses to dial for ``join``/``spectate``/``bot``: from ``--game`` and a typed
    HOST:PORT, or the first matching game mDNS finds within ``--wait`` seconds (a lobby for players,
    any phase for spectators). Raises LookupError with what to do."""
    from carcnet.net.adverts import parse_host_port

    dial: list[tuple[str, int]] = []
    target = None
    if args.address:
        try:
            target = parse_host_port(args.address)
        except ValueError as exc:
            raise LookupError(str(exc)) from None
        dial.append((target.host, target.port))
    if args.game and target is not None:
        return args.game, dial
    if args.no_mdns:
        raise LookupError(_("without mDNS (--no-mdns) give the peer and the game: carcnet join HOST:PORT --game ID"))
    from carcnet.net.discovery import clear_socket_trouble, socket_trouble

    clear_socket_trouble()
    if want == "lobby":
        # Translators: {seconds} is a number of seconds.
        _say(_("Looking for a table on the network (mDNS, up to {seconds} s)…").format(seconds=number(args.wait)))
    else:
        # Translators: {seconds} is a number of seconds.
        _say(_("Looking for a game on the network (mDNS, up to {seconds} s)…").format(seconds=number(args.wait)))
    found = await _first_confirmed(args, want, target, dial)
    if found is not None:
        return found
    trouble = socket_trouble()
    if trouble is not None:
        # Translators: {trouble} is the system's error.
        raise LookupError(_(
            "mDNS cannot send on this network ({trouble}: multicast is refused here); ask the host for "
            "its address and game id: carcnet join HOST:PORT --game ID"
        ).format(trouble=trouble))
    if target is not None:
        # Translators: {address} is the HOST:PORT typed.
        raise LookupError(_(
            "no game found at {address} by mDNS; multicast may be blocked: give the game id too "
            "(--game ID, shown on the host's screen)"
        ).format(address=args.address))
    raise LookupError(_(
        "no game found on the network; is multicast blocked? Ask the host for its address and game id: "
        "carcnet join HOST:PORT --game ID"
    ))


# ---------------------------------------------------------------------- lan


#: What ``carcnet lan`` says of a game by where its best record stands (discovery.md §4), in people's
#: words: confirmed (nothing to say), its probe not done in time, or no answer as the record says
#: (translated where shown).
_LAN_NOTES = {"confirmed": "", "checking": N_("(still checking)"), "unchecked": "", "failed": N_("(not answering)")}
#: The same in the protocol's terms, for ``--verbose``.
_LAN_STATUS = {"confirmed": "confirmed: its key proved itself there", "checking": "unconfirmed: not checked in time",
               "unchecked": "unchecked: another version's", "failed": "unconfirmed: no answer with its key"}

Listed = tuple[Any, str, tuple[str, int] | None]


def _one_per_game(listed: list[Listed]) -> list[tuple[Listed, list[Listed]]]:
    """The records *listed* (as :func:`_browse` gives them: confirmed first) by game: one item per game
    id, in the order of its first record, as (the record that stands for it, every record of it). Each
    laptop of a game that accepts connections advertises it (the host, then every player once it has
    started), and a laptop restarted before its old record expired advertises it again under another
    name: a game is still one game. The record that stands for it is its first (the best confirmed),
    the host's when the host's stands as well."""
    games: dict[str, list[Listed]] = {}
    for row in listed:
        games.setdefault(row[0].game, []).append(row)
    out = []
    for rows in games.values():
        best = rows[0][1]
        chosen = next((row for row in rows if row[1] == best and row[0].role == "host"), rows[0])
        out.append((chosen, rows))
    return out


def _address(ad: Any, where: tuple[str, int] | None) -> str:
    """Where a record's peer listens: where its key proved itself, else its first address."""
    return f"{where[0]}:{where[1]}" if where else f"{ad.addresses[0] if ad.addresses else '?'}:{ad.port}"


def _lan(args: argparse.Namespace) -> int:
    from carcnet.net.discovery import DiscoveryError

    try:
        listed = asyncio.run(_browse(args.wait, args.interface))
    except DiscoveryError as exc:
        # Translators: {reason} is the system's error.
        return _fail(_("mDNS is not available here: {reason}").format(reason=exc), EXIT_REFUSED)
    # confirmed tables first, whatever the number of forged records (discovery.md §4); each game once
    games = _one_per_game(listed)
    if args.json:
        print(json.dumps([
            {"game": ad.game, "name": ad.name, "phase": ad.phase, "seats": [ad.seats_taken, ad.seats_total],
             "peer": ad.peer, "role": ad.role, "addresses": list(ad.addresses), "port": ad.port,
             "proto": ad.proto, "rules": ad.rules, "compatible": ad.compatible,
             "confirmed": status == "confirmed", "key": ad.key.hex(),
             "records": [{"peer": r.peer, "role": r.role, "addresses": list(r.addresses), "port": r.port,
                          "key": r.key.hex(), "status": rs} for r, rs, _w in rows]}
            for (ad, status, _where), rows in games
        ], indent=1))
        return EXIT_OK
    if not games:
        from carcnet.net.discovery import socket_trouble

        trouble = socket_trouble()
        if trouble is not None:
            # Translators: {trouble} is the system's error.
            return _fail(_("mDNS cannot send on this network ({trouble}: multicast is refused here); join by "
                           "address: carcnet join HOST:PORT --game ID").format(trouble=trouble), EXIT_REFUSED)
        # Translators: {seconds} is a number of seconds.
        _say(_("No games found in {seconds} s. (Multicast blocked? Join by address: carcnet join HOST:PORT "
               "--game ID)").format(seconds=number(args.wait)))
        return EXIT_OK
    # Translators: the column headings of carcnet lan's list of games: the game's name, its phase, the
    # seats taken of its seats, the laptop that advertises it, and where to reach it.
    heads = pgettext("lan column", "game"), pgettext("lan column", "phase"), pgettext("lan column", "seats")
    laptop, address = pgettext("lan column", "laptop"), pgettext("lan column", "address")
    _say(f"{heads[0]:<32}  {heads[1]:<8} {heads[2]:<5}  {laptop:<16} {address}")
    for (ad, status, where), rows in games:
        note = _LAN_NOTES.get(status, "") if ad.compatible else N_("(another version of carcnet)")
        note = f"  {_(note)}" if note else ""
        _say(f"{ad.name:<32}  {_phase_word(ad.phase):<8} {ad.seats_taken}/{ad.seats_total}    {ad.peer:<16} "
             f"{_address(ad, where)}  {ad.game}{note}")
        if args.verbose:
            for record, record_status, record_where in rows:
                _say(f"log:   record of {record.peer} ({record.role}) at {_address(record, record_where)}, key "
                     f"{record.key.hex()[:16]}…, protocol {record.proto}, rules {record.rules}: "
                     f"{_LAN_STATUS.get(record_status, record_status)}")
    return EXIT_OK


# ---------------------------------------------------------------------- headless running


def _progress(game: Any, args: argparse.Namespace) -> Callable[[str], None]:
    """What a headless peer prints as *game* changes: a function of the table change (``show``) that
    prints, each once, the table's notes, the lobby's seats, the moves (every one with ``--moves``,
    else every 20th), who is away; with ``--verbose`` also the connection log as it grows (the
    protocol's codes, seqs and sections, :class:`~carcnet.net.connections.NetEvent`), each line
    beginning ``log:``. Every other line is in people's words."""
    from carcnet.table import describe_table

    last_lobby: list[str] = []
    seen_notes = 0
    last_reported = -1
    last_away: list[int] = []
    last_event: list[Any] = []  # the last connection-log event printed (the log keeps only the newest)

    def show(change: str) -> None:
        nonlocal last_lobby, seen_notes, last_reported, last_away
        if getattr(args, "verbose", False):
            _print_events(game.session.connections.events, last_event)
        fresh = min(game.notes_made - seen_notes, len(game.notes))
        for note in game.notes[len(game.notes) - fresh:]:
            _say(note)
        seen_notes = game.notes_made
        if game.header is None:
            lines = describe_table(game.lobby)
            if lines != last_lobby:
                last_lobby = lines
                locked = game.lobby is not None and game.lobby.locked
                seats = pgettext("list of seats", "; ").join(lines)
                # Translators: {seats} lists the table's seats, each in words.
                _say((_("Table (full: the game starts in a moment): {seats}") if locked else _("Table: {seats}")).format(
                    seats=seats))
            return
        names = game.names
        if args.moves:
            from carcnet.engine import DrawTile, TileDrawn

            entries = game.session.entries
            drawn = [e.tile for e in game.game.events if isinstance(e, TileDrawn)] if game.game else []
            draws = sum(isinstance(e.entry.move, DrawTile) for e in entries[: max(last_reported, 0)])
            for signed in entries[max(last_reported, 0):]:
                who = names[signed.entry.seat]
                if isinstance(signed.entry.move, DrawTile):  # wire.md §5.7: the table's draw, no one's move
                    draws += 1
                    tile = drawn[draws - 1] if draws <= len(drawn) else "?"
                    # Translators: the table's draw of entry {seq} (a number) for the player {player}: {tile}
                    # is the tile drawn (its code).
                    _say(_("draw {seq} for {player}: {tile}").format(seq=signed.seq, player=who, tile=tile))
                    continue
                # Translators: entry {seq} (a number), the move of the player {player}: {move} is the move in
                # the log's notation.
                _say(_("move {seq} {player}: {move}").format(seq=signed.seq, player=who, move=signed.entry.move))
            last_reported = game.session.have
        elif game.session.have != last_reported and (
            game.session.have // 20 != last_reported // 20 or game.session.over
        ):
            last_reported = game.session.have
            g = game.game
            # Translators: the progress of a game: {seq} is the number of entries so far, {count} the tiles
            # left, {scores} the scores by seat ("[12, 7]").
            _say(ngettext("move {seq}: {count} tile left, scores {scores}", "move {seq}: {count} tiles left, scores {scores}",
                          g.tiles_left).format(seq=game.session.have, count=g.tiles_left, scores=list(g.scores)))
        away = game.away() if game.status == "playing" else []
        if away != last_away:
            last_away = away
            # Translators: {players} lists the players whose laptop is away.
            _say(_("Away: {players}").format(players=joined([names[s] for s in away])) if away
                 else _("Nobody is away"))

    return show


def _print_events(events: Any, last: list[Any]) -> None:
    """Prints the events of the connection log *events* that came after ``last[0]`` (all of them when
    *last* is empty, or when it is no longer kept), one ``log:`` line each, and keeps the newest in
    *last*."""
    fresh: list[Any] = []
    for event in reversed(events):
        if last and event is last[0]:
            break
        fresh.append(event)
    for event in reversed(fresh):
        peer = f" {event.peer}" if event.peer else ""
        seq = f" seq {event.seq}" if event.seq is not None else ""
        _say(f"log: {event.kind} {event.code}{peer}{seq}: {event.message}")
    if fresh:
        last[:] = [fresh[0]]


async def _run_headless(game: Any, args: argparse.Namespace) -> int:
    """Runs *game* until it is over (or stopped), printing progress (:func:`_progress`); then lingers
    so that peers and spectators get the last entries, and says bye. SIGTERM and SIGHUP quit cleanly:
    ``bye`` (``quit``) to every peer, the save closed, one line on stderr, exit status 128 + the
    signal's number. A network game over is counted into the ratings of the data folder, as the
    interface counts it, and a line says so."""
    from carcnet.club.ratings import count_when_over
    from carcnet.log import default_dir

    show = _progress(game, args)
    game.add_listener(show)
    data_dir = getattr(args, "data_dir", None)
    count_when_over(game, Path(data_dir) if data_dir else default_dir(), _say)
    signalled: list[int] = []
    quit_now = asyncio.Event()

    def quit(signum: int) -> None:
        signalled.append(signum)
        quit_now.set()

    undo = on_quit_signals(asyncio.get_running_loop(), quit)
    try:
        async with game:
            # Translators: {game} is the game's id (32 hexadecimal digits).
            _say(_("game id {game}").format(game=game.game_id))
            if game.peer is not None and game.peer.listen:
                _say(_("listening on port {port}").format(port=game.peer.port))
            show("start")
            status = await _until_over(game, args, quit_now, show)
    finally:
        undo()
    if signalled:  # left the block: bye said, the save closed
        what = _("left the game, saved to {path}").format(path=game.path) if game.path is not None else _("left the game")
        return stopped_by(signalled[0], what)
    return status


#: Seconds a headless peer whose game ended with moves the table has not committed waits for them to be
#: (wire.md §5.9), and how many times a healed split may set its end aside and the game go on.
SETTLE = 30.0
MAX_SETTLES = 8


#: Seconds a headless player whose game is over stays at most, beyond ``--linger``, while a seat's votes do
#: not cover the end (wire.md §5.9), or, at a table of two, the other player's laptop vanished without a
#: goodbye: that laptop may be reconnecting after a split or a crash, and nobody else is left to give it
#: the end.
BEHIND = 10.0


def _held_by_links(game: Any) -> bool:
    """Whether every player connected to this peer holds its last entry."""
    have = game.session.have
    return all(link.peer_have >= have for link in game.session.connections.open_links() if link.role != "spectator")


def _seats_behind(game: Any) -> list[int]:
    """The seats whose votes do not cover this peer's end (the last entry voted for, wire.md §5.9), in
    seat order; empty before the game (:func:`carcnet.table.words.unconfirmed`)."""
    from carcnet.table.words import unconfirmed

    return list(unconfirmed(game).by)


def _held_by_seats(game: Any) -> bool:
    """Whether every seat's votes cover this peer's end (wire.md §5.9)."""
    return not _seats_behind(game)


def _seats_away(game: Any) -> list[int]:
    """At a table of two, the seat whose player's laptop vanished (its last link closed without its
    ``bye``: a crash, a split) and is not back (wire.md §5.6: it runs the seat, or the seat was handed
    over from it): back, it gets the end only from this laptop."""
    presence = game.presence()
    if not presence.two_seats:
        return []  # at a bigger table, another laptop may still be there to give it the end
    away = {key for key, connected in presence.seated_peers().items() if not connected and key in game.records.vanished}
    return [seat for seat in range(len(presence.keys))
            if presence.runner(presence.signers[seat]) in away or presence.owners.get(seat) in away
            or (presence.handovers[seat] is not None and presence.keys[seat] in away)]


def _settled(game: Any) -> bool:
    """Whether a headless player whose game is over may leave: every player connected holds the end,
    every seat's votes cover it, and no player's laptop is away without a goodbye."""
    return _held_by_links(game) and _held_by_seats(game) and not (game.session.seats and _seats_away(game))


async def _until_over(game: Any, args: argparse.Namespace, quit_now: asyncio.Event, show: Any) -> int:
    """Waits until *game* is over or stopped, or *quit_now* is set (then it says ``bye``, ``quit``);
    lingers for the peers that lack the last entries, and prints the end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.timeout
    for __ in range(MAX_SETTLES):
        ended = asyncio.ensure_future(game.wait_until(
            lambda: game.status in ("finished", "stopped")
            or (game.failure is not None and game.header is None and not game.session.connections.open_links()),
            max(0.0, deadline - loop.time()),
        ))
        quitting = asyncio.ensure_future(quit_now.wait())
        try:
            await asyncio.wait([ended, quitting], return_when=asyncio.FIRST_COMPLETED)
        finally:
            quitting.cancel()
        if quit_now.is_set():
            ended.cancel()
            game.close("quit")
            return EXIT_OK
        try:
            ended.result()
        except TimeoutError:
            # Translators: {seconds} is a number of seconds, {status} the table's state in the protocol's
            # terms (lobby, playing, stopped…).
            return _fail(_("the game did not end within {seconds} s (status {status})").format(
                seconds=number(args.timeout), status=game.status), EXIT_REFUSED)
        if game.status != "finished" or not game.pending or not game.session.seats:
            break  # a spectator authors nothing: nothing of its own can be set aside
        # wire.md §5.9: the game ended here with moves the table has not committed (this laptop finished
        # it apart from the others): wait for the split to heal; a committed branch may take the moves'
        # place and the game go on, or the votes come and the end holds
        try:
            await game.wait_until(lambda: game.status != "finished" or not game.pending, SETTLE)
        except TimeoutError:
            # Translators: {count} is the number of moves (the English keeps the plural whatever the number), {seconds} a number of seconds.
            _say(ngettext("The table has not confirmed the last {count} moves of this game within {seconds} s: they may "
                          "be set aside when this laptop meets the others again",
                          "The table has not confirmed the last {count} moves of this game within {seconds} s: they may "
                          "be set aside when this laptop meets the others again", game.pending).format(
                count=game.pending, seconds=number(SETTLE)))
            break
    if game.header is None and game.failure is not None:
        show("end")
        return _fail(game.failure, EXIT_REFUSED)
    # Peers that lack the last entries get them before we leave (bounded by --linger); and a player stays
    # up to BEHIND seconds more while a seat's votes do not cover the end: its laptop may be dialling
    # this one again after a split, and nobody else may be left to give it the end (wire.md §5.9)
    try:
        await game.wait_until(lambda: _settled(game), args.linger)
    except TimeoutError:
        behind = sorted({*_seats_behind(game), *_seats_away(game)}) if game.session.seats else []
        if behind:
            who = joined([game.names[seat] for seat in behind])
            # Translators: {seconds} is a number of seconds, {players} lists one or more players' names.
            _say(_("The game is over; waiting up to {seconds} s for {players} to get the end "
                   "(their laptop may be reconnecting)").format(seconds=number(BEHIND), players=who))
            with contextlib.suppress(TimeoutError):
                await game.wait_until(lambda: _settled(game), BEHIND)
    show("end")
    if game.status == "stopped":
        if getattr(args, "verbose", False):
            _say(f"log: the stop's report: {game.session.desync}")
        from carcnet.table.words import stop_reason

        # Translators: {why} says why the game stopped.
        return _fail(_("the game stopped: {why}").format(why=stop_reason(game.session.desync)), EXIT_REFUSED)
    from .report import final_lines

    names = [s.name for s in game.header.header.seats]
    _say(_("Final scores:"))
    for line in final_lines(game.game, names):
        _say(line)
    # Translators: {digest} is the game's digest (64 hexadecimal digits).
    _say(_("digest {digest}").format(digest=game.session.digest.hex()))
    if game.path is not None:
        _say(_("saved to {path}").format(path=game.path))
    return EXIT_OK


def _common(args: argparse.Namespace) -> dict[str, Any]:
    directory = Path(args.data_dir) if args.data_dir else None
    listen = (args.listen, args.port)
    return {"directory": directory, "listen": listen, "discovery": not args.no_mdns, "interfaces": args.interface,
            "takeover": args.takeover, **({} if args.bot_delay is None else {"bot_delay": args.bot_delay})}


def _tui(args: argparse.Namespace, start: tuple[str, dict[str, Any]]) -> int:
    from carcnet.tui.app import CarcnetApp

    options = _common(args) if hasattr(args, "listen") else {}
    options.pop("directory", None)
    app = CarcnetApp(data_dir=Path(args.data_dir) if args.data_dir else None, start=start, lan_options=options)
    return run_interface(app, args.data_dir)


def _host(args: argparse.Namespace) -> int:
    from carcnet.table import NetTable, plan_from_text

    problem = _check_names(args)
    if problem:
        return _fail(problem)
    from carcnet.log.values import name_problem

    if problem := name_problem(args.game_name):
        return _fail(_name_error("--game-name", args.game_name, problem))

    seats = args.seats or ("greedy,open" if args.headless else "me,open")
    try:
        plan = plan_from_text(seats, me=args.name)
    except ValueError as exc:
        return _fail(str(exc))
    if args.headless and any(p.kind == "host" for p in plan):
        return _fail(_("--headless has nobody at the keyboard: seat bots and open seats only (e.g. --seats "
                       "greedy,open,open)"))
    clock = None
    if args.clock:
        from carcnet.table import TurnClock

        try:
            clock = TurnClock.parse(args.clock)
        except ValueError:
            return _fail(_clock_error(args.clock))
    invite = None
    if args.invite:
        try:
            invite = _servers(args)
        except ValueError as exc:
            return _fail(str(exc))
    if not args.headless:
        return _tui(args, ("host", {"name": args.name, "game_name": args.game_name, "plan": plan, "rules": rules_of(args),
                                    "clock": clock, "invite": invite}))
    try:
        game = NetTable.host(name=args.name, game_name=args.game_name, rules=rules_of(args), plan=plan, clock=clock,
                             invite=invite, **_common(args))
    except ValueError as exc:
        return _fail(str(exc))
    return asyncio.run(_run_headless(game, args))


def _clock_error(text: str) -> str:
    """The error line of a ``--clock`` *text* that ``TurnClock.parse`` refused: the bound a number
    passes, or the form expected."""
    from carcnet.table import TurnClock

    if form := re.fullmatch(r"([0-9]+)(?:\+([0-9]+))?", text):  # the form is right: a number out of bounds
        try:
            TurnClock(int(form[1]), int(form[2] or 0))
        except ValueError as exc:
            # Translators: {value} is what was typed (quoted), {problem} says which bound it passes.
            return _("--clock {value}: {problem}").format(value=shown(text), problem=exc)
    # Translators: {value} is what was typed (quoted); TURN+BANK and TURN are placeholders of the option.
    return _("--clock {value}: give TURN+BANK in whole seconds, e.g. 60+300 (60 s a turn, then a bank "
             "of 300 s), or TURN alone (no bank)").format(value=shown(text))


def _is_code(address: str | None) -> bool:
    """Whether the typed address is an invite code rather than HOST:PORT."""
    from carcnet.net.invite import is_code

    return address is not None and is_code(address)


def _servers(args: argparse.Namespace) -> Any:
    """The invite servers (``carcnet.net.invite.Servers``) of ``--relay`` and ``--transit``, else of
    the settings, else the public ones.

    Raises:
        ValueError: The internet extra is missing, or an address is malformed (one line each).
    """
    from carcnet.net import invite
    from carcnet.tui.settings import Settings

    if (missing := invite.missing()) is not None:
        raise ValueError(missing)
    settings = Settings.load()
    return invite.servers(args.relay or settings.relay, args.transit or settings.transit)


async def _pair(args: argparse.Namespace) -> Any:
    """The pairing made by the invite code typed as the address (``carcnet.net.invite.Pairing``).

    Raises:
        LookupError: The code pairs nothing (wrong, used, nobody waiting, no server), in one line.
    """
    from carcnet.net.invite import InviteError, accept

    try:
        servers = _servers(args)
    except ValueError as exc:
        raise LookupError(str(exc)) from None
    # Translators: {code} is the invite code typed (7-crossover-clockwork).
    _say(_("Sitting down with the invite code {code} (up to a minute)…").format(code=args.address))
    try:
        return await accept(servers, args.address)
    except InviteError as exc:
        raise LookupError(str(exc)) from None


def _check_names(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--name`` and ``--game``, or ``None``."""
    from carcnet.log.values import is_game_id, name_problem

    name = getattr(args, "name", None)
    if name is not None and (problem := name_problem(name)):
        return _name_error("--name", name, problem)
    game = getattr(args, "game", None)
    if game is not None and not is_game_id(game):
        # Translators: {value} is what was typed (quoted).
        return _("--game must be a game id: 32 lowercase hex digits (carcnet lan lists them), got {value}").format(
            value=shown(game))
    return None


def _name_error(option: str, value: str, problem: str) -> str:
    """The error line of a refused name *value* of *option*: its limit when it is too long, else
    *problem* (``name_problem``'s words); what was typed shown cut (:func:`.common.shown`)."""
    from carcnet.log.values import MAX_NAME

    if len(value) > MAX_NAME:
        # Translators: {option} is the option (--name, --game-name), {most} the longest name allowed,
        # {value} what was typed (quoted, cut).
        return ngettext("{option} must be 1 to {most} character; got {value}",
                        "{option} must be 1 to {most} characters; got {value}", MAX_NAME).format(
            option=option, most=MAX_NAME, value=shown(value, 20))
    # Translators: {option} is the option (--name, --game-name), {problem} what is wrong with the name
    # ("must not be empty"), {value} what was typed (quoted).
    return _("{option} {problem}, got {value}").format(option=option, problem=problem, value=shown(value))


def _join_like(args: argparse.Namespace, *, kind: str) -> int:
    from carcnet.table import NetTable

    problem = _check_names(args)
    if problem:
        return _fail(problem)

    if kind != "bot" and not args.headless:
        details = {"address": args.address, "game": args.game, "name": args.name}
        if kind == "join":
            details["colour"] = args.colour
        try:
            if kind == "join" and args.invite:
                details["invite"] = _servers(args)
            if _is_code(args.address):  # paired first, here; the interface opens the table at once
                details = {**details, "address": None, "pairing": asyncio.run(_pair(args))}
        except (LookupError, ValueError) as exc:
            return _fail(str(exc))
        return _tui(args, (kind, details))

    invite = None
    if getattr(args, "invite", False):
        try:
            invite = _servers(args)
        except ValueError as exc:
            return _fail(str(exc))

    async def run() -> int:
        pairings = []
        try:
            if _is_code(args.address):
                pairing = await _pair(args)
                pairings.append(pairing)
                game_id, dial = pairing.about.game, []
            else:
                game_id, dial = await _find(args, want="lobby" if kind != "spectate" else "any")
        except LookupError as exc:
            return _fail(str(exc))
        common = _common(args)
        if kind == "spectate":
            common.pop("listen")
            game = NetTable.spectate(game_id, name=args.name, dial=dial, pairings=pairings, **common)
        else:
            game = NetTable.join(game_id, name=args.name, bot=args.bot, colour=args.colour, dial=dial,
                                 pairings=pairings, invite=invite, **common)
        return await _run_headless(game, args)

    if kind == "join":
        return _fail(_("a person joins with the interface (carcnet join without --headless); a bot with "
                       "carcnet bot --join"))
    return asyncio.run(run())


def _resume(args: argparse.Namespace) -> int:
    from carcnet.log import LogError, load
    from carcnet.table import LanError, NetTable

    path = Path(args.file)
    try:
        signed = load(path).header.signed
    except LogError as exc:  # the message names the file
        return _fail(str(exc), EXIT_USAGE if exc.reason == "unreadable" else EXIT_REFUSED)
    except OSError as exc:
        # Translators: {file} is the file named, {reason} the system's error.
        return _fail(_("{file}: cannot read it: {reason}").format(file=path, reason=exc.strerror or exc), EXIT_USAGE)
    if not args.headless and not _is_code(args.address):
        return _tui(args, ("resume", {"path": path}))
    if not signed:
        # Translators: {file} is the save's name; Resume is the main menu's entry.
        return _fail(_("{file} is a local game: resume it with carcnet play (the Resume entry)").format(file=path.name))
    dial: list[tuple[str, int]] = []
    pairings = []
    if _is_code(args.address):  # back at a table across homes: a code from a laptop still there
        try:
            pairing = asyncio.run(_pair(args))
        except LookupError as exc:
            return _fail(str(exc))
        if pairing.about.game != load(path).header.game:
            asyncio.run(pairing.close())
            # Translators: {code} is the invite code typed, {file} the save's name.
            return _fail(_("the code {code} is for another game than {file}: ask for a code of this game's table").format(
                code=args.address, file=path.name))
        pairings.append(pairing)
    elif args.address:
        from carcnet.net.adverts import parse_host_port

        try:
            hp = parse_host_port(args.address)
        except ValueError as exc:
            return _fail(str(exc))
        dial.append((hp.host, hp.port))
    if not args.headless:  # paired here; the interface opens the saved game with the pairing
        return _tui(args, ("resume", {"path": path, "pairing": pairings[0]}))
    common = _common(args)
    common.pop("directory")
    try:
        invite = _servers(args) if args.invite else None
        game = NetTable.resume(path, dial=dial, pairings=pairings, invite=invite, **common)
    except (LogError, LanError, ValueError) as exc:
        return _fail(str(exc), EXIT_REFUSED)
    if game.human_seats:
        game.recorder.close()  # type: ignore[union-attr]
        return _fail(_("a person plays a seat of this game here: resume it in the interface (without --headless)"))
    return asyncio.run(_run_headless(game, args))


# ---------------------------------------------------------------------- the parser


def _net_options(p: argparse.ArgumentParser, *, listen: bool = True) -> None:
    p.add_argument("--name", default=None, help=_("your name at the table (default: your user name)"))
    p.add_argument("--data-dir", help=_("folder of saved games, as for carcnet play (default: the user data folder's games/)"))
    p.add_argument("--no-mdns", action="store_true", help=_("neither advertise nor browse (connect by address)"))
    p.add_argument("--interface", action="append", metavar="IP",
                   help=_("an IP address of this machine to use for mDNS (repeatable; default: all)"))
    if listen:
        p.add_argument("--invite", action="store_true",
                       help=_("also hand out invite codes, for friends in other homes to sit down with "
                              "(one code a friend; needs pip install 'carcnet[internet]')"))
        p.add_argument("--listen", default="0.0.0.0", metavar="ADDR", help=_("address to accept peers on (default all)"))
        p.add_argument("--port", type=int, default=0, help=_("TCP port to accept peers on (default: any free port)"))
    else:
        p.set_defaults(listen="0.0.0.0", port=0)
    p.add_argument("--timeout", type=float, default=3600.0, help=_("headless: give up after this many seconds"))
    p.add_argument("--takeover", type=float, default=None, metavar="SECONDS",
                   help=_("seconds a bot seat whose laptop is gone stays away at its turn before the table "
                          "gives it to a bot here or elsewhere (default 30)"))
    p.add_argument("--bot-delay", type=float, default=None, metavar="SECONDS",
                   help=_("seconds this laptop's bots wait before each turn (default: at once headless, "
                          "0.6 s in the interface)"))
    p.add_argument("--moves", action="store_true", help=_("headless: print every move (default: every 20th)"))
    p.add_argument("--verbose", action="store_true",
                   help=_("headless: also print the connection log as it grows, in the protocol's terms "
                          "(lines beginning log:)"))
    p.add_argument("--relay", metavar="URL", default=None,
                   help=_("the invite server for invite codes: a magic-wormhole mailbox server's ws:// "
                          "address (default: the setting, else the public one)"))
    p.add_argument("--transit", metavar="tcp:HOST:PORT", default=None,
                   help=_("the relay that carries a game between homes when no direct path is found "
                          "(default: the setting, else the public one)"))
    p.add_argument("--linger", type=float, default=2.0,
                   help=_("headless: seconds to stay after the end so that peers get the last moves (default 2)"))


def _find_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", nargs="?", metavar="HOST:PORT|CODE",
                   help=_("a peer of the game, or an invite code from a friend elsewhere, e.g. "
                          "7-crossover-clockwork (default: find a game by mDNS)"))
    p.add_argument("--game", help=_("the game id (needed with HOST:PORT where multicast is blocked)"))
    p.add_argument("--wait", type=float, default=10.0, help=_("seconds to look for games by mDNS (default 10)"))


def add_commands(sub: Any) -> None:
    """Adds the network subcommands to ``carcnet``'s subparsers *sub*."""
    import getpass

    # Translators: the name a player is given at a table when the computer has no user name.
    fallback = pgettext("a player's name when there is none", "player")
    try:
        user = getpass.getuser()[:32] or fallback
    except (KeyError, OSError, ImportError):  # no user name in this environment (getpass's failures)
        user = fallback

    lan = sub.add_parser("lan", help=_("list the games on the network (mDNS)"))
    lan.add_argument("--wait", type=float, default=3.0, help=_("seconds to listen (default 3)"))
    lan.add_argument("--json", action="store_true", help=_("print the games as JSON"))
    lan.add_argument("--verbose", action="store_true",
                     help=_("also print every record of each game, in the protocol's terms (lines beginning log:)"))
    lan.add_argument("--interface", action="append", metavar="IP", help=_("an IP address of this machine to use"))
    lan.set_defaults(run=_lan)

    from carcnet.bots import BOTS

    bots = ", ".join(BOTS)  # the names typed
    host = sub.add_parser(
        "host", help=_("open a table on the network"),
        # Translators: me, open, the bots' names and me,open,open,hard are typed as they are (not translated);
        # {bots} lists the bots' names.
        description=_("Opens a table others on the network can join. --seats lists the seats: me (you), open "
                      "(a player on the network), or a bot this laptop runs ({bots}: random and greedy play "
                      "at once, easy, medium and hard are the search bot's levels); e.g. "
                      "me,open,open,hard.").format(
            bots=bots),
    )
    _net_options(host)
    # Translators: me, open and me,open are typed as they are (not translated); {bots} lists the bots' names.
    host.add_argument("--seats", help=_("comma-separated seats: me, open, or a bot: {bots} (default me,open)").format(
        bots=bots))
    host.add_argument("--game-name", default=None, help=_("the game's name on the network (default: NAME's game)"))
    host.add_argument("--headless", action="store_true", help=_("no interface: bots and open seats only"))
    host.add_argument("--clock", metavar="TURN+BANK",
                      help=_("a turn clock: seconds a turn, then a bank of seconds a seat, e.g. 60+300 "
                             "(default: none); a seat that runs out has its turn played by the greedy bot on "
                             "its own laptop"))
    add_rule_options(host)
    host.set_defaults(run=_host)

    join = sub.add_parser("join", help=_("sit down at a table on the network"))
    _find_options(join)
    _net_options(join)
    join.add_argument("--colour", help=_("the colour you would like"))
    join.add_argument("--headless", action="store_true", help=argparse.SUPPRESS)
    join.set_defaults(run=lambda a: _join_like(a, kind="join"), bot=None)

    spec = sub.add_parser("spectate", help=_("watch a game on the network"))
    _find_options(spec)
    _net_options(spec, listen=False)
    spec.add_argument("--headless", action="store_true", help=_("no interface: print progress and the final scores"))
    spec.set_defaults(run=lambda a: _join_like(a, kind="spectate"))

    bot = sub.add_parser(
        "bot", help=_("seat a bot at a table on the network (headless)"),
        description=_("A headless peer that claims a seat at a table and plays it with a bot."),
    )
    bot.add_argument("--join", action="store_true", required=True, help=_("join a table (the only thing a bot does)"))
    _find_options(bot)
    _net_options(bot)
    bot.add_argument("--bot", default="greedy", help=_("random, greedy, or a search level: easy, medium, hard, expert (default greedy)"))
    bot.add_argument("--level", dest="bot", choices=tuple(LEVELS),
                     help=_("the search bot at this level (the same as --bot LEVEL)"))
    bot.add_argument("--colour", help=_("the colour it would like"))
    bot.set_defaults(run=lambda a: _join_like(a, kind="bot"), headless=True)

    res = sub.add_parser("resume", help=_("re-open a saved network game on the network"))
    res.add_argument("file", metavar=pgettext("command line placeholder", "file"), help=_("a .carclog of a network game"))
    res.add_argument("address", nargs="?", metavar="HOST:PORT|CODE",
                     help=_("a peer of the game to connect to, or an invite code from a laptop at its table elsewhere"))
    _net_options(res)
    res.add_argument("--headless", action="store_true", help=_("no interface: bots' seats only"))
    res.set_defaults(run=_resume)

    for p in (host, join, spec, bot, res):
        p.set_defaults(default_name=user)


def fill_defaults(args: argparse.Namespace) -> None:
    """Names: ``--name`` or the user name; a bot is called after its kind; a game after its host."""
    if getattr(args, "name", "absent") is None:
        if args.command == "bot":
            # Translators: the name of a bot's seat: {kind} is the bot's kind, capitalised (Greedy, Hard).
            args.name = _("{kind} bot").format(kind=args.bot.capitalize())
        else:
            args.name = args.default_name
    if getattr(args, "game_name", "absent") is None:
        # Translators: the game name offered; {name} is the host's name.
        args.game_name = _("{name}'s game").format(name=args.name)[:32]
    if getattr(args, "command", None) in ("host", "join", "spectate", "bot", "resume") and (
        getattr(args, "headless", False)
    ):
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
