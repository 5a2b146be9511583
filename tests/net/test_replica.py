"""One peer's copy of a LAN game's log, as tables of cases (protocol/wire.md §5.4–5.5, §5.7; log.md §6,
§9): a batch of entries from a peer is taken entry by entry (identical repeats skipped, a gap answered
``bad-seq`` with the next seq, a refused entry answered with its code, a digest that differs stops the
game with the game rebuilt to the log, a second entry signed by a seat's signer for a held seq stops it
as a conflict, an unproven one does not), a handover beats the draw made at its seq, the log is served
in batches of MAX_ENTRIES. Values in, values out: no session, no links."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import pytest

from carcnet.engine import (
    DrawTile,
    Game,
    HandBack,
    HandOver,
    IllegalMoveError,
    Move,
    Phase,
    PlaceTile,
    Position,
)
from carcnet.log import LogEntry
from carcnet.net import Entries, ProtocolError, SignedEntry, WireHeader, verify_entry
from carcnet.net.messages import MAX_ENTRIES
from carcnet.net.replica import Desync, MemoryLog, Replica, SyncError, Taken

from .loopback import GAME, make_header, seat_key, sign
from .test_table_draws import chains, table_header

#: A two-seat game of 8 tiles dealt in this order (16 entries, played with each first legal move).
SEEDED = make_header(2, order=tuple("EUVKDLBJ"))
#: A three-seat game whose tiles the table draws (deck.md §5).
TABLE = table_header(3)
VALUES = chains(3)


def replay(header: WireHeader, entries: Iterable[SignedEntry]) -> Game:
    game = Game(header.header.setup())
    for signed in entries:
        game.apply(signed.entry.move)
    return game


def next_move(game: Game) -> Move:
    """The draw from every contributing seat's value while the table draws; else the first legal move."""
    if game.phase is Phase.DRAW:
        k, seats = game.deck_index + 1, game.contributors()
        return DrawTile(tuple(VALUES[s][k] if s in seats else None for s in range(game.players)))
    return game.legal_moves()[0]


def extend(header: WireHeader, entries: Sequence[SignedEntry], moves: Iterable[Move] = (), count: int = 0,
           ) -> list[SignedEntry]:
    """*entries*, then *moves*, then *count* more (:func:`next_move`; fewer if the game ends): each signed
    by its signer's seat key (log.md §6: the ``by`` seat of a handover in force), a draw unsigned in the
    name of the seat whose tile it draws."""
    game = replay(header, entries)
    out = list(entries)

    def add(move: Move) -> None:
        if isinstance(move, DrawTile):
            seat = game.seat
            game.apply(move)
            out.append(SignedEntry(LogEntry(len(game.moves), seat, move, game.digest), None))
            return
        seat, signer = game.author(move)
        game.apply(move)
        out.append(sign(LogEntry(len(game.moves), seat, move, game.digest), seat_key(signer)))

    for move in moves:
        add(move)
    for _ in range(count):
        if game.phase is Phase.GAME_OVER:
            break
        add(next_move(game))
    return out


def rival(header: WireHeader, log: Sequence[SignedEntry], seq: int, *, seat: int | None = None,
          signer: int | None = None, digest: bytes | None = None) -> SignedEntry:
    """A different entry for *seq* of *log*: the second legal move there, by its author unless *seat*,
    signed by its signer's key unless *signer*, with the digest after it unless *digest*."""
    game = replay(header, log[: seq - 1])
    move = game.legal_moves()[1]
    author, by = game.author(move)
    game.apply(move)
    entry = LogEntry(seq, author if seat is None else seat, move, game.digest if digest is None else digest)
    return sign(entry, seat_key(by if signer is None else signer))


def replica(header: WireHeader, held: Sequence[SignedEntry] = ()) -> Replica:
    """A replica of *header*'s game holding *held* (saved already: its persistence holds them too)."""
    copy = Replica(GAME, "Ann", MemoryLog(held))
    copy.take_header(header)
    copy.load(held)
    return copy


def saved(copy: Replica) -> list[SignedEntry]:
    """What *copy* saved (its persistence is a :class:`MemoryLog`)."""
    assert isinstance(copy.persistence, MemoryLog)
    return copy.persistence.entries


LOG = extend(SEEDED, [], count=100)


def test_the_scripted_logs_are_whole_and_valid():
    assert replay(SEEDED, LOG).phase is Phase.GAME_OVER
    assert len(LOG) == 16
    assert replica(SEEDED, LOG).have == 16  # every entry admitted: signatures, authors, digests


# ---------------------------------------------------------------------- take: a seeded game


def flipped(signed: SignedEntry) -> SignedEntry:
    sig = bytearray(signed.sig or b"")
    sig[5] ^= 0xFF
    return SignedEntry(signed.entry, bytes(sig))


def resigned(signed: SignedEntry, **change) -> SignedEntry:
    """*signed* with fields of its entry changed, signed again by *key* (its seat's key by default)."""
    key = change.pop("key", None)
    return sign(dataclasses.replace(signed.entry, **change), key)


#: (entries held, the batch, its from_seq, what take gives:
#:  (appended, held_all, refusal code, refusal seq, stop code), seq held after)
TAKE = [
    pytest.param(4, LOG[0:4], 1, (0, True, None, None, None), 4, id="an identical repeat is skipped"),
    pytest.param(4, LOG[2:7], 3, (3, True, None, None, None), 7, id="repeats then new entries"),
    pytest.param(0, LOG[0:5], 1, (5, True, None, None, None), 5, id="new entries from the start"),
    pytest.param(15, LOG[15:16], 16, (1, True, None, None, None), 16, id="the entry that ends the game"),
    pytest.param(2, LOG[4:6], 5, (0, False, "bad-seq", 3, None), 2,
                 id="a gap is answered bad-seq with have + 1"),
    pytest.param(2, LOG[3:5], 4, (0, False, "bad-seq", 3, None), 2, id="a gap of one entry"),
    pytest.param(0, LOG[1:3], 2, (0, False, "bad-seq", 1, None), 0, id="a gap before the first entry"),
    pytest.param(3, [flipped(LOG[3])], 4, (0, False, "bad-signature", 4, None), 3, id="a broken signature"),
    pytest.param(3, [sign(LOG[3].entry, seat_key(0))], 4, (0, False, "bad-signature", 4, None), 3,
                 id="seat 1's entry signed by seat 0's key"),
    pytest.param(3, [resigned(LOG[3], seat=0)], 4, (0, False, "not-your-turn", 4, None), 3,
                 id="seat 0 signs for seat 0 at seat 1's turn"),
    pytest.param(3, [resigned(LOG[3], seat=5, key=seat_key(0))], 4, (0, False, "not-your-turn", 4, None), 3,
                 id="a seat the table does not have"),
    pytest.param(3, [resigned(LOG[3], move=PlaceTile("U", Position(50, 50), 0))], 4,
                 (0, False, "illegal-move", 4, None), 3, id="a move the engine refuses"),
    pytest.param(2, [LOG[2], resigned(LOG[3], move=PlaceTile("U", Position(50, 50), 0))], 3,
                 (1, False, "illegal-move", 4, None), 3, id="the entries before a refused one are taken"),
    pytest.param(2, [LOG[2], resigned(LOG[3], digest=bytes(32))], 3, (1, False, "desync", 4, "desync"), 3,
                 id="a signed entry with another digest after the entry it builds on stops the game"),
    pytest.param(3, [LOG[2], resigned(LOG[3], digest=bytes(32))], 3, (0, False, "desync", 4, "desync"), 3,
                 id="a signed entry with another digest after a held one stops the game"),
    pytest.param(3, [resigned(LOG[3], digest=bytes(32))], 4, (0, False, None, None, None), 3,
                 id="a signed entry with another digest alone may be another branch's: no stop"),
    pytest.param(4, [rival(SEEDED, LOG, 4)], 4, (0, False, "conflict", 4, "conflict"), 4,
                 id="a second entry signed by the seat's signer is proof: conflict stops the game"),
    pytest.param(4, [rival(SEEDED, LOG, 4, signer=0)], 4, (0, False, None, None, None), 4,
                 id="a different entry signed by another key: ignored, no stop"),
    pytest.param(4, [SignedEntry(dataclasses.replace(LOG[3].entry, digest=bytes(32)), LOG[3].sig)], 4,
                 (0, False, None, None, None), 4, id="a different entry under the held entry's signature: ignored"),
    pytest.param(4, [rival(SEEDED, LOG, 4, seat=0, signer=0)], 4, (0, False, None, None, None), 4,
                 id="a different entry signed by another seat in its own name: ignored"),
    pytest.param(4, [LOG[2], rival(SEEDED, LOG, 4), LOG[4]], 3, (0, False, "conflict", 4, "conflict"), 4,
                 id="a conflict ends the batch"),
]


@pytest.mark.parametrize(("held", "batch", "from_seq", "taken", "after"), TAKE)
def test_take(held, batch, from_seq, taken, after):
    copy = replica(SEEDED, LOG[:held])
    result = copy.take(batch, from_seq)
    appended, held_all, code, seq, stop = taken
    assert (result.appended, result.held_all, result.took_back) == (appended, held_all, None)
    refusal = (result.refusal[0], result.refusal[2]) if result.refusal else None
    assert refusal == ((code, seq) if code else None)
    assert (result.stop.code if result.stop else None) == stop
    assert copy.entries == LOG[:after] and saved(copy) == LOG[:after]
    game = copy.game
    assert game is not None and game.digest == replay(SEEDED, LOG[:after]).digest  # the game is the log's
    if result.stop is not None:
        bad = batch[[s.seq for s in batch].index(seq)]
        assert result.stop.theirs == bad
        assert result.stop.ours == (LOG[seq - 1] if stop == "conflict" else None)  # a desync holds none


def test_an_entry_with_another_digest_alone_asks_for_the_entries_from_the_last_held():
    copy = replica(SEEDED, LOG[:3])
    taken = copy.take([resigned(LOG[3], digest=bytes(32))], 4)
    assert (taken.want, taken.stop, taken.refusal) == (3, None, None)  # the answer overlaps: it tells
    assert copy.game is not None and copy.game.digest == replay(SEEDED, LOG[:3]).digest


def test_after_a_desync_the_game_is_the_logs_and_takes_the_true_entry():
    copy = replica(SEEDED, LOG[:3])
    assert copy.take([LOG[2], resigned(LOG[3], digest=bytes(32))], 3).stop is not None
    assert copy.take([LOG[3]], 4) == Taken(appended=1, held_all=True)  # no stray move in the game
    assert copy.entries == LOG[:4]


def test_a_gap_names_the_seq_the_batch_started_at():
    taken = replica(SEEDED, LOG[:2]).take(LOG[5:7], 6)
    assert taken.refusal == ("bad-seq", "entries from 6; the next is 3", 3)


# ---------------------------------------------------------------------- take: a draw racing a handover


#: The table game of three seats: draw 1 (seq 1), seat 0's turn (2, 3), draw 2 for seat 1 (4), seat 1's turn.
TLOG = extend(TABLE, [], count=8)
#: Seat 0 hands seat 2 over at seq 4 instead of the draw, then the table draws without seat 2.
RACE = extend(TABLE, TLOG[:3], [HandOver(2, "greedy", 0)], count=4)


def test_the_race_logs_are_as_described():
    assert [type(TLOG[i].entry.move) for i in (0, 1, 3, 4)] == [DrawTile, PlaceTile, DrawTile, PlaceTile]
    assert [TLOG[i].entry.seat for i in (1, 2, 3, 4)] == [0, 0, 1, 1]
    assert isinstance(RACE[3].entry.move, HandOver) and isinstance(RACE[4].entry.move, DrawTile)
    draw = RACE[4].entry.move
    assert isinstance(draw, DrawTile) and draw.values[2] is None
    assert replica(TABLE, TLOG).have == len(TLOG) and replica(TABLE, RACE).have == len(RACE)


def foreign_handover() -> SignedEntry:
    """The handover of seq 4 signed by seat 1's key: the engine refuses it (``bad-signature``)."""
    return sign(RACE[3].entry, seat_key(1))


#: Another draw for seq 5 (seat 2's value in it): not the draw RACE holds there.
OTHER_DRAW = SignedEntry(
    dataclasses.replace(RACE[4].entry, move=DrawTile(tuple(v[2] for v in VALUES)), digest=bytes(32)), None
)

#: (entries held, the batch, what take gives: (appended, held_all, took_back, refusal code), entries held
#:  after)
RACES = [
    pytest.param(TLOG[:4], RACE[3:4], (1, True, 4, None), RACE[:4],
                 id="a handover for the seq of our last entry, a draw, takes its place"),
    pytest.param(TLOG[:4], RACE[3:7], (4, True, 4, None), RACE[:7],
                 id="the entries after the handover in the same batch are taken"),
    pytest.param(TLOG[:4], RACE[2:6], (3, True, 4, None), RACE[:6],
                 id="a repeat, the handover, then new entries"),
    pytest.param(TLOG[:5], RACE[3:5], (0, False, None, None), TLOG[:5],
                 id="a handover for a draw that is not our last entry is ignored"),
    pytest.param(TLOG[:4], [foreign_handover()], (0, False, None, None), TLOG[:4],
                 id="a handover the engine refuses leaves our draw"),
    pytest.param(RACE[:4], TLOG[3:5], (0, False, None, None), RACE[:4],
                 id="a draw for the seq of our handover is ignored"),
    pytest.param(RACE[:5], TLOG[3:4], (0, False, None, None), RACE[:5],
                 id="a draw for the seq of a handover we hold, not the last"),
    pytest.param(RACE[:5], [OTHER_DRAW], (0, False, None, None), RACE[:5],
                 id="another draw for the seq of our draw: no votes commit it, ignored"),
    # wire.md §5.5: only two entries signed by the seat's signer stop a game; a table draw is unsigned
    pytest.param(RACE[:5], [TLOG[4]], (0, False, None, None), RACE[:5],
                 id="the seat's signed move for the seq of our draw: ignored, no stop"),
]


@pytest.mark.parametrize(("held", "batch", "taken", "after"), RACES)
def test_take_a_draw_racing_a_handover(held, batch, taken, after):
    copy = replica(TABLE, held)
    result = copy.take(batch, batch[0].seq)
    appended, held_all, took_back, code = taken
    assert (result.appended, result.held_all, result.took_back) == (appended, held_all, took_back)
    assert (result.refusal[0] if result.refusal else None) == code
    assert result.stop is None  # unsigned draws are never proof
    assert copy.entries == after
    assert saved(copy) == after  # the draw taken back from the file too
    game = copy.game
    assert game is not None and game.digest == replay(TABLE, after).digest


#: (entries held, seq, what race_answer gives)
RACE_ANSWER = [
    pytest.param(RACE[:7], None, None, id="no seq"),
    pytest.param(RACE[:7], 0, None, id="seq 0: the setup"),
    pytest.param(RACE[:7], 4, "send", id="our handover: send it"),
    pytest.param(RACE[:7], 5, "want", id="our draw: want theirs"),
    pytest.param(RACE[:7], 1, "want", id="the first draw"),
    pytest.param(RACE[:7], 6, None, id="a placement: a plain mismatch"),
    pytest.param(RACE[:7], 8, None, id="beyond what we hold"),
    pytest.param(RACE[:4], 4, "send", id="our last entry, a handover"),
]


@pytest.mark.parametrize(("held", "seq", "answer"), RACE_ANSWER)
def test_race_answer(held, seq, answer):
    assert replica(TABLE, held).race_answer(seq) == answer


# ---------------------------------------------------------------------- authoring


class Recorder:
    """A :class:`~carcnet.net.replica.Persistence` that notes each call in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None]] = []

    def on_append(self, signed: SignedEntry) -> None:
        self.calls.append(("append", signed.seq))

    def on_take_back(self, seq: int) -> None:
        self.calls.append(("take back", seq))

    def sync(self) -> None:
        self.calls.append(("sync", None))


def test_an_authored_entry_is_signed_saved_and_durable_before_it_is_returned():
    recorder = Recorder()
    copy = Replica(GAME, "Ann", recorder)
    copy.take_header(SEEDED)
    signed = copy.author(LOG[0].entry.move, {0: seat_key(0)})
    assert signed == LOG[0] and copy.entries == [signed]
    assert signed.sig is not None and verify_entry(seat_key(0).public, GAME, signed.entry, signed.sig)
    assert recorder.calls == [("append", 1), ("sync", None)]  # on disk, then durable, then sent


def test_a_handover_is_authored_by_its_by_seat():
    copy = replica(TABLE, TLOG[:3])
    assert copy.author(HandOver(2, "greedy", 0), {0: seat_key(0)}) == RACE[3]


def stopped() -> Replica:
    """A replica the session stopped: a signed entry with another digest (the session notes the stop)."""
    copy = replica(SEEDED, LOG[:3])
    bad = resigned(LOG[3], digest=bytes(32))
    stop = copy.take([LOG[2], bad], 3).stop
    assert stop is not None and not copy.stopped
    copy.stop(Desync(stop.code, 4, 1, "Rogue", bytes(32), "Ann", stop.message, stop.ours, stop.theirs))
    return copy


#: (the replica, the move, the keys held (seats), the error and words in it)
AUTHOR_REFUSED = [
    pytest.param(lambda: Replica(GAME, "Ann"), LOG[0].entry.move, (0,), SyncError, "no game yet",
                 id="no header"),
    pytest.param(lambda: replica(SEEDED), LOG[0].entry.move, (1,), SyncError, "seat 0's turn",
                 id="a seat this peer does not play"),
    pytest.param(lambda: replica(SEEDED, LOG[:2]), HandOver(1, "greedy", 0), (1,), SyncError,
                 "would take seat 1 over", id="a handover by a seat this peer does not play"),
    pytest.param(lambda: replica(SEEDED), PlaceTile("E", Position(9, 9), 0), (0,), IllegalMoveError, None,
                 id="a move the engine refuses"),
    pytest.param(stopped, LOG[3].entry.move, (0, 1), SyncError, "stopped", id="the game stopped"),
    pytest.param(lambda: replica(SEEDED, LOG), LOG[0].entry.move, (0, 1), SyncError, "over",
                 id="the game is over"),
]


@pytest.mark.parametrize(("make", "move", "seats", "error", "words"), AUTHOR_REFUSED)
def test_author_refused(make, move, seats, error, words):
    copy = make()
    have, digest = copy.have, copy.game.digest if copy.game else None
    with pytest.raises(error, match=words):
        copy.author(move, {s: seat_key(s) for s in seats})
    assert (copy.have, copy.game.digest if copy.game else None) == (have, digest)  # nothing changed


def test_append_draw_makes_the_entry_every_peer_makes():
    copy = replica(TABLE, TLOG[:3])
    game = copy.game
    assert game is not None
    move, drawer = next_move(game), game.seat
    game.apply(move)
    assert isinstance(move, DrawTile)
    copy.append_draw(move, drawer)
    assert copy.entries == TLOG[:4] and saved(copy) == TLOG[:4]
    assert copy.entries[-1].sig is None and copy.entries[-1].entry.seat == 1


# ---------------------------------------------------------------------- the header, saved entries, signers


def test_take_header_refuses_another_game_and_changes_nothing():
    copy = Replica("0" * 32, "Ann")
    with pytest.raises(ProtocolError) as refused:
        copy.take_header(SEEDED)
    assert refused.value.code == "wrong-game" and copy.header is None and copy.game is None


#: (the header held first or None, saved entries, the words of the ValueError or None)
LOAD = [
    pytest.param(SEEDED, LOG[:5], None, id="saved entries are taken"),
    pytest.param(None, (), None, id="nothing saved needs no header"),
    pytest.param(None, LOG[:1], "need their header", id="saved entries without their header"),
    pytest.param(SEEDED, [LOG[0], resigned(LOG[1], digest=bytes(32))], "saved entry 2: desync",
                 id="a saved entry with another digest"),
    pytest.param(SEEDED, [LOG[0], LOG[2]], "saved entry 3: bad-seq", id="a saved entry missing"),
    pytest.param(SEEDED, [LOG[0], flipped(LOG[1])], "saved entry 2: bad-signature",
                 id="a saved entry's signature"),
]


@pytest.mark.parametrize(("header", "saved", "words"), LOAD)
def test_load(header, saved, words):
    copy = Replica(GAME, "Ann")
    if header is not None:
        copy.take_header(header)
    if words is None:
        copy.load(saved)
        assert copy.entries == list(saved) and copy.have == len(saved)
    else:
        with pytest.raises(ValueError, match=words):
            copy.load(saved)


#: A two-seat game where seat 0 takes seat 1 over at seq 3 and gives it back at seq 8.
HANDED = extend(SEEDED, LOG[:2], [HandOver(1, "greedy", 0)], count=4)
HANDED = extend(SEEDED, HANDED, [HandBack(1)], count=2)

#: (seq, seat, the seat whose key signs seat's entry seq)
SIGNERS = [
    pytest.param(3, 1, 1, id="before the handover: the seat's own key"),
    pytest.param(4, 1, 0, id="after the handover: the taker's key"),
    pytest.param(8, 1, 0, id="the handback itself is made under the taker's key"),
    pytest.param(9, 1, 1, id="after the handback: the seat's own key again"),
    pytest.param(4, 0, 0, id="the taker's own seat"),
]


@pytest.mark.parametrize(("seq", "seat", "signer"), SIGNERS)
def test_signer_at(seq, seat, signer):
    copy = replica(SEEDED, HANDED)
    assert [type(s.entry.move) for s in HANDED[2:9:5]] == [HandOver, HandBack]
    assert copy.signer_at(seq, seat) == signer


# ---------------------------------------------------------------------- serving


def long_log(count: int) -> list[SignedEntry]:
    """*count* entries with consecutive seqs (copies of one entry: batches only carry them)."""
    first = LOG[0]
    return [SignedEntry(dataclasses.replace(first.entry, seq=seq), first.sig) for seq in range(1, count + 1)]


#: (entries held, the seq asked from, each batch as (from_seq, last seq))
BATCHES = [
    pytest.param(0, 1, [], id="nothing held"),
    pytest.param(5, 6, [], id="asked from beyond what is held"),
    pytest.param(5, 1, [(1, 5)], id="one short batch"),
    pytest.param(5, 0, [(1, 5)], id="from seq 0 means from the first"),
    pytest.param(MAX_ENTRIES, 1, [(1, MAX_ENTRIES)], id="exactly MAX_ENTRIES: one batch"),
    pytest.param(MAX_ENTRIES + 1, 1, [(1, MAX_ENTRIES), (MAX_ENTRIES + 1, MAX_ENTRIES + 1)],
                 id="one more: a second batch"),
    pytest.param(600, 1, [(1, 256), (257, 512), (513, 600)], id="split at MAX_ENTRIES"),
    pytest.param(600, 300, [(300, 555), (556, 600)], id="split counted from the seq asked"),
    pytest.param(600, 600, [(600, 600)], id="the last entry only"),
]


@pytest.mark.parametrize(("count", "start", "spans"), BATCHES)
def test_batches(count, start, spans):
    assert MAX_ENTRIES == 256
    copy = Replica(GAME, "Ann")
    copy.entries = long_log(count)
    batches = copy.batches(start)
    assert all(isinstance(b, Entries) for b in batches)
    assert [(b.from_seq, b.entries[-1].seq) for b in batches] == spans
    assert [s for b in batches for s in b.entries] == copy.entries[max(start, 1) - 1:]  # each once, in order


@pytest.mark.parametrize("held_first", ["the seat's own handback", "the runner's move"])
def test_a_seats_own_handback_and_its_runners_move_at_one_seq_are_two_branches_not_a_conflict(held_first):
    """Seat 0 handed over to seat 1's bot; at seat 0's turn the runner plays it (signed with seat 1's
    key) while seat 0's own laptop takes the seat back (``handback 0 by 0``, seat 0's key): both entries
    name seat 0, but two keys signed them, so neither proves a seat signed two moves (wire.md §5.5
    "Overlaps"); the later one is another branch, and the game goes on (the nemesis stopped tables so)."""
    start = extend(SEEDED, [], [HandOver(0, "greedy", 1)], count=4)  # seat 0's turn again: its bot's
    game = replay(SEEDED, start)
    assert game.seat == 0 and game.signer(0) == 1
    runner = extend(SEEDED, start, count=1)[-1]
    own = extend(SEEDED, start, [HandBack(0, 0)])[-1]
    assert runner.entry.seat == own.entry.seat == 0 and runner.sig != own.sig
    held, other = (own, runner) if held_first == "the seat's own handback" else (runner, own)
    copy = replica(SEEDED, [*start, held])
    taken = copy.take([other], other.seq)
    assert taken.stop is None and taken.refusal is None
    assert copy.entries[-1] == held and copy.desync is None
