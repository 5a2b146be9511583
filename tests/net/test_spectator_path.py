"""The spectator's path with real tables on loopback (wire.md §4.2 "The game id", §5.4, §5.10): a
spectator takes only the header its game's host sealed, leaves a player that keeps the game back, and
bounds the dials a player's welcome can make it spend."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import socket
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from carcnet.bots import make_bot
from carcnet.engine import Phase, Rules
from carcnet.log import COLOURS, LogHeader, Seat
from carcnet.net import Entries, SeatKey, SignedEntry, WireHeader
from carcnet.net import peer as peer_module
from carcnet.net.link import Link
from carcnet.net.messages import Heartbeat, Message, PeerInfo, Seal, Welcome, decode_message
from carcnet.net.peer import MAX_HINT_FAILURES, Peer
from carcnet.net.signing import sealed_game_id, seat_chain, sign_entry, sign_seal
from carcnet.net.sync import SyncSession
from carcnet.table import NetTable, plan_from_text

from .loopback import FAST, LIMIT, until

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)
#: A spectator's clocks of progress shortened for the tests (wire.md §5.10).
WATCH = dataclasses.replace(FAST, stall=1.0, quiet=3.0)


def _key(label: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet spectator path {label}".encode()).digest())


def _address(table: NetTable) -> tuple[str, int]:
    assert table.peer is not None
    return ("127.0.0.1", table.peer.port)


async def _host(tmp_path: Path, seats: str, **options: object) -> NetTable:
    return NetTable.host(name="Ann", game_name="Watched", rules=Rules(), plan=plan_from_text(seats, me="Ann"),
                         directory=tmp_path / "ann", listen=LOOP, discovery=False, timing=FAST, **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- a made-up game under the real id


def _made_up_game(game: str, keys: list[SeatKey], moves: int) -> SyncSession:
    """Mallory's own game under the real game id: her keys in every seat, table draws from her chains,
    *moves* entries played by a greedy bot, each signed with her keys."""
    seats = [Seat(f"Fake {i}", COLOURS[i], "bot", "greedy") for i in range(len(keys))]
    length = Rules().pile_size()
    roots = [seat_chain(key, game, seat, length)[0] for seat, key in enumerate(keys)]
    header = WireHeader.of(LogHeader.new(seats, keys=[k.public for k in keys], commits=roots, game=game, created=0))
    session = SyncSession(game=game, name="Mallory", identity=keys[0], header=header, seats=dict(enumerate(keys)))
    bot = make_bot("greedy", 1)
    for _ in range(moves):  # a bounded number of moves; the draws are made between them by the session
        game_now = session.game
        assert game_now is not None and game_now.phase is not Phase.DRAW
        session.submit(bot.choose(game_now.view()))
    return session


@pytest.mark.parametrize("seal", ["none", "her own", "the host's"])
async def test_a_spectator_refuses_a_made_up_game_served_under_the_real_game_id(tmp_path: Path, seal: str) -> None:
    """Item 8 of the attacks: a player served a fabricated header under the real game id and the
    spectator showed and saved a whole made-up game. The game id is made from the host's key, and
    the header sealed with it (wire.md §4.2): without a seal, with one of Mallory's own (her key makes
    another game id) or with the host's real seal of the real header, the spectator refuses her header
    (``bad-header``), saves nothing, and then takes the real game from the host."""
    async with await _host(tmp_path, "greedy,random", bot_delay=0.01) as ann:
        await ann.wait_until(lambda: ann.session.have >= 4, LIMIT)
        assert ann.session.replica.seal is not None
        mallory_keys = [_key("Mallory 0"), _key("Mallory 1")]
        fake = _made_up_game(ann.game_id, mallory_keys, moves=6)
        header = fake.header
        assert header is not None and header.fingerprint != ann.header.fingerprint  # type: ignore[union-attr]
        if seal == "her own":
            nonce = bytes(32)
            fake.replica.seal = Seal(mallory_keys[0].public, nonce, sign_seal(mallory_keys[0], header.fingerprint))
            assert sealed_game_id(mallory_keys[0].public, nonce) != ann.game_id
        elif seal == "the host's":
            fake.replica.seal = ann.session.replica.seal
        async with Peer(fake, timing=FAST) as mallory:
            eve = NetTable.spectate(ann.game_id, name="Eve", directory=tmp_path / "eve", dial=[mallory.address],
                                    discovery=False, timing=FAST)
            async with eve:
                assert eve.peer is not None
                sent = eve.session.connections.events
                await eve.wait_until(lambda: any(e.kind == "sent" and e.code == "bad-header" for e in sent), LIMIT)
                assert eve.header is None and eve.session.have == 0 and eve.path is None
                assert not list((tmp_path / "eve").glob("*.carclog"))  # nothing of the made-up game is saved
                eve.peer.dial(*_address(ann))  # the host it should have dialled: its header is sealed
                await eve.wait_until(lambda: eve.header is not None and eve.session.have >= 4, LIMIT)
        assert eve.header == ann.header and eve.session.entries == ann.session.entries[: eve.session.have]
        assert eve.path is not None and eve.path.exists()


async def test_entries_not_signed_by_the_headers_keys_are_refused(tmp_path: Path) -> None:
    """wire.md §5.4: with the sealed header taken, a spectator checks every entry under its keys. A
    peer that serves the real header (sealed) and then an entry of the game's signed with a key the
    header does not hold is refused ``bad-signature``; the spectator's log stays the game's."""
    async with await _host(tmp_path, "greedy,random", bot_delay=0.01) as ann:
        await ann.wait_until(lambda: ann.session.have >= 4, LIMIT)
        real = ann.session.entries
        assert real[0].sig is None and real[1].sig is not None  # a draw, then the first move
        mallory_key = _key("Mallory 0")
        forged = SignedEntry(real[1].entry, sign_entry(mallory_key, ann.game_id, real[1].entry))
        mallory = SyncSession(game=ann.game_id, name="Mallory", identity=mallory_key, header=ann.header,
                              seal=ann.session.replica.seal)

        def serve_forged(change: str, link: Link | None) -> None:
            if change == "open" and link is not None and link.role == "spectator":
                link.send(Entries(from_seq=1, entries=(real[0], forged)))

        mallory.add_listener(serve_forged)
        async with Peer(mallory, timing=FAST) as server:
            eve = NetTable.spectate(ann.game_id, name="Eve", directory=tmp_path / "eve", dial=[server.address],
                                    discovery=False, timing=FAST)
            async with eve:
                sent = eve.session.connections.events
                await eve.wait_until(lambda: any(e.kind == "sent" and e.code == "bad-signature" for e in sent), LIMIT)
                assert eve.header == ann.header and eve.session.entries == real[:1]


# ---------------------------------------------------------------------- a player that keeps the game back


def _keep_entries_from_spectators(table: NetTable, monkeypatch: pytest.MonkeyPatch, *, mirror: bool) -> None:
    """Makes *table* a player that serves the spectators that dial it no entries and never closes on
    them: the attack of a seated player on the spectators that fail over to it. It says what it holds
    (its ``have``), or, with *mirror*, that it holds just what the spectator holds, so that the
    spectator asks it for nothing."""
    session = table.session
    connections = session.connections
    accept = connections.accept_link
    refuse = connections.refuse

    def lie(link: Link, message: Message) -> Message:
        game = session.game
        if not mirror or game is None or not isinstance(message, Welcome | Heartbeat):
            return message
        said = link.banks[0] if link.heartbeats else link.peer.have if link.peer is not None else 0
        have = min(said, len(game.digests) - 1)  # what the spectator last said it holds
        return dataclasses.replace(message, have=have, digest=game.digests[have])

    def accept_link() -> Link:
        link = accept()
        send, queue = link.send, link.queue

        def no_entries_sent(message: Message) -> bool:
            if link.role != "spectator":
                return send(message)
            return True if isinstance(message, Entries) else send(lie(link, message))

        def no_entries_queued(frame: bytes) -> None:
            if link.role != "spectator" or not isinstance(decode_message(frame), Entries):
                queue(frame)

        link.send = no_entries_sent  # type: ignore[method-assign]
        link.queue = no_entries_queued  # type: ignore[method-assign]
        return link

    def never_refuse_a_spectator(link: Link, *args: object, **kwargs: object) -> None:
        if link.role != "spectator":
            refuse(link, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(connections, "accept_link", accept_link)
    monkeypatch.setattr(connections, "refuse", never_refuse_a_spectator)


@pytest.mark.parametrize("mirror", [False, True], ids=["she says what she holds", "she says what the spectator holds"])
async def test_a_spectator_whose_peer_goes_fails_over_to_a_player_that_makes_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mirror: bool
) -> None:
    """Item 8: after the host died, a spectator failed over to a seated player that sends spectators
    nothing and froze while the game went on. Here that player always answers first (the honest one's
    door opens only once the spectator is in with her). The spectator leaves her once she has said for
    a while that she holds more than she gives; when she says she holds just what the spectator
    holds, the spectator, hearing of no entry for a while, asks the honest player too (wire.md
    §5.10). Either way it follows the game to its end."""
    gate = asyncio.Event()
    gate.set()
    accepted = Peer._accepted
    honest: list[Peer] = []

    async def gated(self: Peer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self in honest:
            await asyncio.wait_for(gate.wait(), LIMIT)
        await accepted(self, reader, writer)

    monkeypatch.setattr(Peer, "_accepted", gated)
    async with await _host(tmp_path, "open,open") as ann:
        joiners = [NetTable.join(ann.game_id, name=name, bot="greedy", directory=tmp_path / name, listen=LOOP,
                                 dial=[_address(ann)], discovery=False, timing=FAST, bot_delay=0.03)
                   for name in ("Bob", "Mallory")]
        bob, mallory = joiners
        _keep_entries_from_spectators(mallory, monkeypatch, mirror=mirror)
        async with bob, mallory:
            assert bob.peer is not None and mallory.peer is not None
            honest.append(bob.peer)
            eve = NetTable.spectate(ann.game_id, name="Eve", directory=tmp_path / "eve", dial=[_address(ann)],
                                    discovery=False, timing=WATCH)
            async with eve:
                assert eve.peer is not None
                book = eve.session.connections.addresses.entries
                players = {bob.session.identity.public, mallory.session.identity.public}
                await until([eve.peer, bob.peer], lambda: players <= set(book) and eve.session.have >= 6
                            and bob.session.to_play is not None)
                gate.clear()  # the honest player answers only once the spectator is in with Mallory

                def with_mallory() -> bool:
                    if any(link.name == "Mallory" for link in eve.session.connections.open_links()):
                        gate.set()
                    return gate.is_set()

                await ann.aclose()
                await until([eve.peer], with_mallory)
                await until([eve.peer, bob.peer], lambda: bob.status == "finished"
                            and eve.session.have == bob.session.have, LIMIT * 3)
                assert eve.session.entries == bob.session.entries
                if not mirror:  # she said she held more than she gave: left for the next (§5.10)
                    left = [e for e in eve.session.connections.events if e.code == "timeout" and e.kind == "sent"]
                    assert any(e.peer == "Mallory" for e in left), eve.session.connections.events
                    # her own bye: Mallory did not leave, Eve stopped watching through her
                    assert "Stopped watching through Mallory" in eve.notes, eve.notes
                    assert not [n for n in eve.notes if n.startswith("Mallory left")], eve.notes


# ---------------------------------------------------------------------- a welcome of 32 addresses


@pytest.fixture
def closed_ports() -> Iterator[list[int]]:
    """32 loopback ports nobody listens on (bound, then closed): a dial there is refused at once."""
    ports = []
    for _ in range(32):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
    yield ports


async def test_the_dials_a_players_welcome_makes_a_spectator_spend_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, closed_ports: list[int]
) -> None:
    """Item 8: a player whose welcome listed 32 addresses and then left made the spectator dial them
    441 times in 90 s. A spectator's fail-over dials are a hint's (wire.md §5.10): each address is
    given up after 6 attempts in a row that did not open, and a hint then forgotten, so the 32 cost at
    most 192 attempts and then nothing."""
    attempts: Counter[tuple[str, int]] = Counter()
    connect = peer_module.connect

    async def counted(host: str, port: int, *, timeout: float):  # type: ignore[no-untyped-def]
        attempts[(host, port)] += 1
        return await connect(host, port, timeout=timeout)

    monkeypatch.setattr(peer_module, "connect", counted)
    junk = [PeerInfo(_key(f"junk {i}").public, f"Junk {i}", "127.0.0.1", port) for i, port in enumerate(closed_ports)]
    async with await _host(tmp_path, "greedy,open", bot_delay=0.05) as ann:
        mallory = NetTable.join(ann.game_id, name="Mallory", bot="greedy", directory=tmp_path / "m", listen=LOOP,
                                dial=[_address(ann)], discovery=False, timing=FAST, bot_delay=0.05)
        connections = mallory.session.connections
        monkeypatch.setattr(connections, "welcome_peers", lambda key: tuple(junk))
        monkeypatch.setattr(mallory.session._router, "addresses_changed", lambda: None)  # she tells no one else
        async with mallory:
            await mallory.wait_until(lambda: mallory.session.have >= 2, LIMIT)
            eve = NetTable.spectate(ann.game_id, name="Eve", directory=tmp_path / "eve", dial=[_address(mallory)],
                                    discovery=False, timing=WATCH)
            async with eve:
                assert eve.peer is not None
                book = eve.session.connections.addresses
                junk_keys = {info.key for info in junk}  # 31 of them fit beside Mallory's own address
                await eve.wait_until(lambda: len(junk_keys & set(book.entries)) >= 31 and eve.header is not None,
                                     LIMIT)
                await mallory.aclose()
                await eve.wait_until(lambda: not junk_keys & set(book.entries), LIMIT)  # all given up, forgotten
                dialers = [task for address, task in eve.peer._dialers.items() if address[1] in closed_ports]
                await asyncio.wait_for(asyncio.gather(*dialers, return_exceptions=True), LIMIT)
                spent = {address: n for address, n in attempts.items() if address[1] in closed_ports}
                # the bound is the point: every hint dialled at most MAX_HINT_FAILURES times; a hint the
                # book dropped before its first dial (a loaded machine) costs nothing
                assert len(spent) >= 16 and max(spent.values()) <= MAX_HINT_FAILURES, spent
                assert sum(spent.values()) <= 32 * MAX_HINT_FAILURES


# ---------------------------------------------------------------------- the seal after a restart


async def test_a_player_keeps_the_seal_with_its_keys_and_passes_it_on_after_a_restart(tmp_path: Path) -> None:
    """wire.md §4.2: a player keeps the host's seal beside its save (the keys file), so that once
    resumed it still passes it on in its welcomes and a spectator that dials only it takes the header."""
    from carcnet.table.keys import keys_path, read_keys

    async with await _host(tmp_path, "greedy,open", bot_delay=0.02) as ann:
        bob = NetTable.join(ann.game_id, name="Bob", bot="greedy", directory=tmp_path / "bob", listen=LOOP,
                            dial=[_address(ann)], discovery=False, timing=FAST, bot_delay=0.02)
        async with bob:
            await bob.wait_until(lambda: bob.session.have >= 4 and bob.path is not None, LIMIT)
        seal = ann.session.replica.seal
    assert seal is not None and bob.session.replica.seal == seal and bob.path is not None
    assert read_keys(keys_path(bob.path), bob.header).seal == seal  # type: ignore[arg-type]
    again = NetTable.resume(bob.path, listen=LOOP, discovery=False, timing=FAST)
    assert again.session.replica.seal == seal
    async with again:
        eve = NetTable.spectate(ann.game_id, name="Eve", directory=tmp_path / "eve", dial=[_address(again)],
                                discovery=False, timing=FAST)
        async with eve:
            await eve.wait_until(lambda: eve.header is not None, LIMIT)
    assert eve.header == bob.header


async def test_a_welcome_holds_a_seal_only_with_its_header() -> None:
    """wire.md §4.2: ``seal`` is nil without a header (``bad-message``)."""
    from carcnet.net import MessageError

    seal = Seal(_key("Ann").public, bytes(32), bytes(64))
    with pytest.raises(MessageError, match="welcome.seal must be nil without a header"):
        Welcome(game="0" * 32, role="player", name="Ann", key=_key("Ann").public, seal=seal)
