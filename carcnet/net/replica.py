"""Provides :class:`Replica`: one peer's copy of a LAN game's log, without links or I/O
(``protocol/wire.md`` §5.4–5.5, §5.7; ``protocol/log.md`` §6, §9).

The replica holds the header, the signed entries in seq order, the engine
:class:`~carcnet.engine.Game` they replay to, where the entries are saved (:class:`Persistence`) and,
once the game stopped here, why (:class:`Desync`). Values in, values out:

- :meth:`Replica.author`: a move of a seat this peer holds, applied, signed, saved, made durable;
- :meth:`Replica.take`: a batch of entries from a peer, each admitted in turn
  (:func:`~carcnet.net.admission.admit_entry`), with what the session must answer (:class:`Taken`):
  a ``bad-seq``, a refusal, a stop (a desync, or a seat that signed two entries for one seq), a
  draw taken back because a handover for the same seq beat it;
- :meth:`Replica.batches`: the ``entries`` messages that carry the log from a seq on (catch-up);
- :meth:`Replica.race_answer`: what a mismatched digest at a draw or a handover calls for;
- :meth:`Replica.vote` and :meth:`Replica.take_votes`: the seats' votes (:class:`~carcnet.net.quorum.Votes`)
  and the :attr:`Replica.commit_index` they give (wire.md §5.9, the commit rule); a batch that parts
  from this log where its entries are not committed replaces them when the votes commit it, and the
  entries replaced are set aside (:class:`SetAside`), never lost.

The session (:class:`~carcnet.net.sync.SyncSession`) sends what these give on its links.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from carcnet.engine import DrawTile, Game, HandBack, HandOver, Move, Phase
from carcnet.i18n import _
from carcnet.log import LogEntry

from .admission import admit_entry, check_header, check_seal
from .branches import Branches
from .draws import draw_race
from .framing import ProtocolError
from .messages import MAX_ENTRIES, Ack, Entries, Seal, SignedEntry, Vote, WireHeader
from .parts import Give
from .persistence import MemoryLog, Persistence
from .quorum import SPLIT_SEQS, Votes
from .signing import SeatKey, sign_entry, verify_entry
from .tiebreak import beaten

__all__ = ["MAX_HELD_BACK", "Desync", "MemoryLog", "Persistence", "Replica", "SetAside", "SyncError", "Taken"]

log = logging.getLogger("carcnet.net")

#: Most entries a peer keeps from a ``handover`` it has not taken yet (wire.md §5.6 "What the others
#: check"): those of a whole game, about 3 per tile, fit.
MAX_HELD_BACK = 2 * MAX_ENTRIES


class SyncError(Exception):
    """This program asked the session for something it cannot do now (a bug or a stale UI, never the
    peer's fault): a move for a seat this peer does not hold, a move once the game stopped, …"""


@dataclass(frozen=True, slots=True)
class Desync:
    """Why the game stopped at this peer: proof that two peers' logs parted.

    Attributes:
        code: ``"desync"`` (a signed entry whose digest differs from this engine's) or ``"conflict"``
            (a second, different entry signed by the same seat for a seq this peer holds).
        seq: The entry's seq.
        seat: The seat that signed it.
        peer: Name of the peer it came from (the relay; the author is *seat*).
        peer_key: That peer's identity key.
        local: This peer's name.
        message: Words for people.
        ours: The entry this peer holds for *seq* (``None`` for ``"desync"``: it holds none).
        theirs: The entry received.
    """

    code: str
    seq: int
    seat: int
    peer: str
    peer_key: bytes
    local: str
    message: str
    ours: SignedEntry | None
    theirs: SignedEntry

    def __str__(self) -> str:
        return (
            f"{self.code} at seq {self.seq} (seat {self.seat}): entry from {self.peer} "
            f"({self.peer_key.hex()[:12]}…) refused by {self.local}: {self.message}"
        )


@dataclass(frozen=True, slots=True)
class Stop:
    """A batch proved that the logs parted (:attr:`Taken.stop`): the parts of a :class:`Desync`
    that do not name the link it came on."""

    code: Literal["desync", "conflict"]
    theirs: SignedEntry
    ours: SignedEntry | None
    message: str


@dataclass(frozen=True, slots=True)
class SetAside:
    """Entries this peer held that the table did not commit, replaced by committed ones (wire.md §5.9
    "Healing") and kept in the side file.

    Attributes:
        seq: The first seq set aside.
        entries: The entries set aside, from *seq* on, in order.
        instead: The committed entry that took *seq*.
        where: Where they are kept (the side file), or ``None`` (in memory).
        voters: The seats whose votes committed *instead*.
    """

    seq: int
    entries: tuple[SignedEntry, ...]
    instead: SignedEntry
    where: str | None
    voters: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Taken:
    """What :meth:`Replica.take` did with a batch of entries, for the session to answer.

    Attributes:
        appended: Entries appended (a handover that took a draw's place counts).
        held_all: Whether every entry of the batch is held now (a repeat of its frame can be skipped).
        refusal: The ``error`` to answer with: code, text, seq; or ``None``.
        stop: Proof that the logs parted (the game stops here), or ``None``.
        took_back: The seq of a draw taken back for a handover (peers that may hold the draw must be
            sent the handover), or ``None``.
        set_aside: Entries replaced by committed ones (wire.md §5.9), or ``None``.
        want: Ask the sender for its entries from this seq (the batch may come from another branch:
            the answer shows where the branches part), or ``None``.
        parted: The seq where the batch parts from this log, its entries ignored, or 0.
    """

    appended: int = 0
    held_all: bool = False
    refusal: tuple[str, str, int | None] | None = None
    stop: Stop | None = None
    took_back: int | None = None
    set_aside: SetAside | None = None
    want: int | None = None
    parted: int = 0


class Replica:
    """One peer's copy of a LAN game's log: header, signed entries, the replayed game.

    Args:
        game: The game id.
        name: This peer's name, for the program's log records.
        persistence: Where new entries are saved; a :class:`MemoryLog` by default.

    Attributes:
        header: The game's header, once held (:meth:`take_header`).
        seal: The host's seal of the header (wire.md §4.2), once held and checked (:meth:`take_seal`):
            passed on in this peer's welcomes so that spectators can check the header.
        game: The engine game the entries replay to (``None`` without a header).
        entries: The signed entries, entry *seq* at index ``seq - 1``.
        persistence: Where entries are saved.
        desync: Why the game stopped here, or ``None``.
        votes: The seats' votes held (wire.md §5.9), once the header is.
        commit_index: The highest seq this peer knows committed (0: none); entries after it are
            pending. Never goes down.
        certificate: The votes that commit :attr:`commit_index` (:meth:`~carcnet.net.quorum.Votes.certificate`),
            kept when it grows, passed on with heartbeats (wire.md §4.11), ``None`` before.
        aside: Every set of entries set aside here, oldest first.
    """

    def __init__(self, game: str, name: str, persistence: Persistence | None = None) -> None:
        self.game_id = game
        self.name = name
        self.persistence: Persistence = persistence if persistence is not None else MemoryLog()
        self.header: WireHeader | None = None
        self.seal: Seal | None = None
        self.game: Game | None = None
        self.entries: list[SignedEntry] = []
        self.desync: Desync | None = None
        self.votes: Votes | None = None
        self.commit_index = 0
        self.certificate: Ack | None = None
        #: The seqs above the commit index where other branches part from this log, as far as this peer
        #: knows (at most SPLIT_SEQS, the lowest): its seats vote at exactly each of them too, and the
        #: first votes there are kept whatever the votes at other seqs (wire.md §5.9 "The tie-break";
        #: :attr:`votes` reads this very set, changed in place only).
        self.partings: set[int] = set()
        self.branches = Branches()  # per sender, its last batch of another branch ignored (§5.9)
        self.aside: list[SetAside] = []
        #: A player's judgement of a ``handover`` it receives, or of a ``handback`` a seat made of
        #: itself (wire.md §5.6 "What the others check"): given the game before it and the move, whether
        #: what this peer saw lets it take it. One it does not vouch for is taken only once the votes
        #: held commit it (§5.9); ``None``: no check.
        self.vet: Callable[[Game, HandOver | HandBack], bool] | None = None
        #: The seq of the last ``handover`` this peer did not take (:meth:`vouched`): entries that come
        #: alone after it may build on it, another branch, and are answered as one (wire.md §5.9).
        self.passed_over: int | None = None
        #: The entries from that handover on, as they came (at most :data:`MAX_HELD_BACK`): the
        #: messages that follow them extend them, until the votes commit them (:meth:`vouched`).
        self.held_back: list[SignedEntry] = []
        self.held_back_from = b""  # … and who sent it (only that peer's next entries extend it)
        #: Whether this peer's seats gave their votes away (wire.md §5.9 "Two seats, and leaving"): it
        #: casts no vote again in this game.
        self.gave = False

    # ------------------------------------------------------------------ state

    @property
    def have(self) -> int:
        """Seq of the last entry held (0: none)."""
        return len(self.entries)

    @property
    def stopped(self) -> bool:
        """Whether a :class:`Desync` stopped the game here."""
        return self.desync is not None

    @property
    def over(self) -> bool:
        """Whether the game is over (the engine says so)."""
        return self.game is not None and self.game.phase is Phase.GAME_OVER

    def use_persistence(self, persistence: Persistence) -> None:
        """Saves every entry from now on to *persistence*; entries held already are not written
        again."""
        self.persistence = persistence

    def stop(self, report: Desync) -> None:
        """The logs parted (wire.md §5.5 "What stops a game"): the game stops here for *report*; no
        entry is authored or taken any more."""
        self.desync = report

    def take_header(self, header: WireHeader) -> None:
        """Takes the game's header (wire.md §5.4: checked by
        :func:`~carcnet.net.admission.check_header`) and starts its game.

        Raises:
            ProtocolError: The header is refused (``bad-header``, ``wrong-game``…); nothing changed.
        """
        self.game = check_header(header, game=self.game_id)
        self.header = header
        self.votes = Votes(header.game, header.keys, partings=self.partings)
        self.votes.follow(self.game, self.entries)

    def take_seal(self, seal: Seal | None) -> bool:
        """Keeps *seal* if this peer holds none yet and it seals the header held
        (:func:`~carcnet.net.admission.check_seal`); returns whether it was kept. A seal that does not
        check is dropped: it is nothing this peer would pass on."""
        if seal is None or self.seal is not None or self.header is None:
            return False
        try:
            check_seal(self.header, seal)
        except ProtocolError:
            return False
        self.seal = seal
        return True

    def load(self, entries: Sequence[SignedEntry]) -> None:
        """Takes saved entries (a peer coming back), each checked again.

        Raises:
            ValueError: No header, or an entry that does not replay (its code and message).
        """
        if entries and (self.game is None or self.header is None):
            raise ValueError("saved entries need their header")
        for signed in entries:
            assert self.game is not None and self.header is not None
            try:
                admit_entry(self.game, self.header, signed)
            except ProtocolError as exc:
                raise ValueError(f"saved entry {signed.seq}: {exc.code}: {exc.message}") from None
            self.entries.append(signed)
        if self.votes is not None and self.game is not None:
            self.votes.follow(self.game, self.entries)

    # ------------------------------------------------------------------ authoring

    def author(self, move: Move, keys: Mapping[int, SeatKey]) -> SignedEntry:
        """Plays *move* for the seat to play, whose signer's key must be in *keys* (seat → key):
        applies it, signs the entry, saves it and makes it durable before it may be sent (wire.md
        §5.5 "Authoring", log.md §9). A :class:`~carcnet.engine.HandOver` is made by its ``by``
        seat.

        Raises:
            SyncError: No game yet, the game is over or stopped, or the signer's key is not in *keys*.
            IllegalMoveError: The engine refuses the move; nothing changed.
        """
        game, header = self.game, self.header
        if game is None or header is None:
            raise SyncError(_("no game yet: the header has not arrived"))
        if self.desync is not None:
            # Translators: {report} is the stop's report (in the protocol's terms, English).
            raise SyncError(_("the game is stopped: {report}").format(report=self.desync))
        if self.over:
            raise SyncError(_("the game is over"))
        seat, signer = game.author(move)
        key = keys.get(signer)
        if key is None:
            if isinstance(move, HandOver):
                raise SyncError(f"seat {seat} would take seat {move.seat} over, but this peer does not play it")
            if isinstance(move, HandBack) and move.by is not None:
                raise SyncError(f"{move}: only seat {seat}'s own player takes it back, and this peer does not hold its key")
            if isinstance(move, HandBack):
                raise SyncError(f"{move}: seat {seat} runs the seat's bot, and this peer does not play it")
            # Translators: {seat} is a seat's number (from 0).
            raise SyncError(_("it is seat {seat}'s turn, which this peer does not play").format(seat=seat))
        game.apply(move)
        entry = LogEntry(len(game.moves), seat, move, game.digest)
        signed = SignedEntry(entry, sign_entry(key, header.game, entry))
        self.append(signed)
        self.persistence.sync()  # log.md §9: what this peer signs is on disk before anyone sees it
        return signed

    def append_draw(self, move: DrawTile, drawer: int) -> None:
        """Appends the table draw just applied to :attr:`game` (unsigned: every peer makes it, wire.md
        §5.7), in the name of *drawer*, the seat whose tile it draws (log.md §6)."""
        assert self.game is not None
        self.append(SignedEntry(LogEntry(len(self.game.moves), drawer, move, self.game.digest), None))

    def append(self, signed: SignedEntry) -> None:
        """Appends an entry the game has taken already, and saves it."""
        self.entries.append(signed)
        self.persistence.on_append(signed)
        if self.votes is not None and self.votes.tie is None and self.game is not None:
            self.votes.follow(self.game, self.entries)

    # ------------------------------------------------------------------ taking entries

    def take(self, entries: Sequence[SignedEntry], from_seq: int, *, parted: bool = False,
             source: bytes = b"", whole: bool = True) -> Taken:
        """Takes a batch of entries from a peer (an ``entries`` message from *from_seq*): entries held
        already are skipped (identical) or judged (different: a draw racing a handover, wire.md §5.7;
        a seat that signed two entries for one seq, §5.5 "Overlaps"; else another branch, which
        replaces this log's pending entries once the votes commit it, §5.9, and is ignored until
        then); the next one is admitted, and so on; a gap is answered ``bad-seq``. Stops at the first
        problem. Never raises for the peer's input. *parted*: the sender is known to hold another
        branch, so an entry that does not follow from this log is asked about (``want``), not refused.
        *source*: the sender's identity key (a batch of another branch is kept per sender). *whole*:
        whether the batch came in one message (entries held back joined with a later message are no
        proof that two engines part where they do not follow each other: its sender may have moved on)."""
        game, header = self.game, self.header
        assert game is not None and header is not None
        if self.branches.continues(source, entries, self.entries):
            if _follows(game, header, entries[0]):
                self.branches.drop(source)  # its sender took this log's branch since: they follow it
            else:  # §5.9: the next batch of another branch ignored so far (an answer comes in several)
                return self._other_branch((*self.branches.get(source), *entries), 0, None, source)
        appended, took_back = 0, None
        overlap = from_seq <= self.have  # the batch shows the prefix its next entry builds on
        for index, signed in enumerate(entries):
            seq, have = signed.seq, self.have
            if seq <= have:
                held = self.entries[seq - 1]
                if held == signed:
                    continue
                race = draw_race(held, signed)
                if race == "theirs" and seq == have and self.take_back_draw(signed, entries[index:]):
                    appended, took_back = appended + 1, seq  # the handover took the draw's place
                    game = self.game
                    continue
                if race is not None:
                    # wire.md §5.7: a draw a handover beats is ignored (the sender takes it back), and
                    # so is a handover this peer does not take, unless the votes commit it (§5.9)
                    return self._other_branch(entries[index:], appended, took_back, source)
                proof = self._conflict_proof(held, signed)
                if proof is not None:
                    refusal = ("conflict", f"seq {seq}: a different entry from the one held", seq)
                    return Taken(appended, refusal=refusal, stop=proof, took_back=took_back)
                return self._other_branch(entries[index:], appended, took_back, source)
            if seq > have + 1:
                return self._gap(entries[index:], from_seq, appended, took_back, source)
            assert game is not None
            if not self.vouched(game, entries[index:]):
                self.held_back_from = source
                return Taken(appended, took_back=took_back)  # wire.md §5.6: not taken here, not yet
            try:
                admit_entry(game, header, signed)
            except ProtocolError as exc:
                stop = None
                if exc.code == "desync":
                    self.game = self.replayed(len(self.entries))  # the game holds a move the log does not
                if (not overlap and appended == 0 and (parted or self._maybe_elsewhere(exc.code, seq))) or not whole:
                    # wire.md §5.9: it may build on another branch of this log (its digest differs,
                    # or votes could commit another branch here): the sender's entries from where
                    # this log is pending, or from this log's last entry, overlap it and tell
                    start = self.commit_index + 1 if self.elsewhere() else max(have, 1)
                    return Taken(appended, took_back=took_back, want=start)
                if exc.code == "desync":  # the batch holds the prefix it builds on: proof
                    stop = Stop("desync", signed, None, exc.message)
                return Taken(appended, refusal=(exc.code, exc.message, exc.seq), stop=stop, took_back=took_back)
            self.append(signed)
            appended += 1
        return Taken(appended, held_all=True, took_back=took_back)

    def _maybe_elsewhere(self, code: str, seq: int) -> bool:
        """Whether an entry *seq* that does not follow from this log (refused *code*) may build on
        another branch of it (wire.md §5.9): its digest differs, votes could commit another branch, or
        it comes after a ``handover`` this peer passed over (§5.6)."""
        passed = self.passed_over is not None and self.passed_over < seq
        return code == "desync" or self.elsewhere() or passed

    def _gap(self, entries: Sequence[SignedEntry], from_seq: int, appended: int, took_back: int | None,
             source: bytes) -> Taken:
        """*entries* begin after a gap in this log: ``bad-seq``, unless they are the next message of
        entries that follow a ``handover`` held back (:attr:`held_back`) from the same sender, which
        they extend: the votes may commit it once they are all there (a catch-up comes in many
        messages, wire.md §5.6); joined, they prove nothing where they do not follow each other."""
        have, kept, same = self.have, self.held_back, source == self.held_back_from
        if kept and same and kept[0].seq == have + 1 and entries[0].seq == kept[-1].seq + 1:
            self.held_back = []
            taken = self.take([*kept, *entries][:MAX_HELD_BACK], kept[0].seq, source=source, whole=False)
            return replace(taken, appended=taken.appended + appended)
        refusal = ("bad-seq", f"entries from {from_seq}; the next is {have + 1}", have + 1)
        return Taken(appended, refusal=refusal, took_back=took_back)

    def _other_branch(self, entries: Sequence[SignedEntry], appended: int, took_back: int | None,
                      source: bytes) -> Taken:
        """wire.md §5.9 "Healing": *entries* part from this log at their first seq. When the votes held
        commit them there (and this log's entry there is pending), they replace this log from there on
        and the entries replaced are set aside; two committed entries for one seq stop the game (a
        seat broke the rule); otherwise they are ignored, and the connection stays."""
        assert self.header is not None and self.game is not None and self.votes is not None
        held = 0  # a kept batch may begin with entries this log has taken since: they part later, if at all
        while held < len(entries) and entries[held].seq <= self.have and self.entries[entries[held].seq - 1] == entries[held]:
            held += 1
        if held:
            self.branches.drop(source)
            if held == len(entries):
                return Taken(appended, held_all=True, took_back=took_back)
            taken = self.take(entries[held:], entries[held].seq, source=source)
            return replace(taken, appended=taken.appended + appended, took_back=taken.took_back or took_back)
        seq = entries[0].seq
        votes = self.votes
        if not votes.elsewhere(self.game.digests, seq):
            self.branches.keep(source, entries)  # §5.9: looked at again when votes come (retry_branch)
            self.note_parting(seq)
            return Taken(appended, took_back=took_back, parted=seq)  # no quorum could vote for it
        game = self.replayed(seq - 1)
        branch: list[SignedEntry] = []
        for signed in entries:
            try:
                admit_entry(game, self.header, signed)
            except ProtocolError:
                break
            branch.append(signed)
        committed = votes.committed(game.digests)
        if branch:
            self.branches.head(source, seq, self.game.digests[seq - 1], branch[0].entry.digest)
        if not branch and seq > self.commit_index + 1:
            # it does not follow from our entries before *seq*: the branches part earlier, where ours
            # are pending too; the sender's entries from our commit index show where
            return Taken(appended, took_back=took_back, parted=seq, want=self.commit_index + 1)
        if not branch or not self._decides(game.digests, seq, branch[0]):
            self.branches.keep(source, entries)
            self.note_parting(seq)
            return Taken(appended, took_back=took_back, parted=seq)
        if self.commit_index >= seq:
            message = f"two committed entries for seq {seq}: the votes of seats break the commit rule"
            return Taken(appended, refusal=("conflict", message, seq),
                         stop=Stop("conflict", branch[0], self.entries[seq - 1], message), took_back=took_back)
        aside = tuple(self.entries[seq - 1 :])
        where = self.persistence.on_set_aside(seq)
        del self.entries[seq - 1 :]
        self.game = game
        if self.votes is not None:
            self.votes.follow(game, self.entries)
        for signed in branch:
            self.append(signed)
        self._committed(max(self.commit_index, committed))
        self.partings.clear()  # this log parts from others elsewhere now, if at all: learnt again
        self.branches.drop(source)
        record = SetAside(seq, aside, branch[0], where, tuple(votes.voters(game.digests, seq)))
        self.aside.append(record)
        log.warning("%s: %d entries from seq %d set aside: the table committed others", self.name, len(aside), seq)
        return Taken(appended + len(branch), held_all=len(branch) == len(entries), took_back=took_back,
                     set_aside=record)

    def _decides(self, digests: Sequence[bytes], seq: int, *more: SignedEntry) -> bool:
        """Whether the votes held make entry *seq* of the branch *digests* the table's (wire.md §5.9):
        committed, or chosen by the tie-break among the entries at *seq* known here to follow this log's
        entries before it (it counts votes for these only): this log's own, the heads of the branches
        kept (:class:`~carcnet.net.branches.Branches`), and *more*."""
        assert self.votes is not None and self.game is not None
        found = self.branches.head_entries(seq, self.game.digests)
        found.update((signed.entry.digest, signed) for signed in more)
        if seq <= self.have:
            found[self.entries[seq - 1].entry.digest] = self.entries[seq - 1]
        return self.votes.decides(digests, seq, set(found), beaten(found, lambda seat: self.signer_at(seq, seat)))

    def retry_branch(self) -> Taken | None:
        """Looks again at the ``handover`` held back (:attr:`held_back`, wire.md §5.6) and at the last
        batches of other branches this peer ignored for want of the votes that commit them (§5.9), one
                per sender, oldest first: votes came since, and their senders may have nothing new to send.
        Returns what taking one did when it replaced this log's pending entries, else ``None`` (each
        is kept until its sender's next replaces it or it is taken)."""
        if self.game is None:
            return None
        kept = self.held_back
        if kept and self.votes is not None and kept[0].seq in (self.have, self.have + 1):
            # §5.6: a handover passed over, and the entries after it, taken once the votes commit it
            # (its senders believe this peer holds them: they may never send them again)
            seq = kept[0].seq
            digests = [*self.game.digests[:seq], *(signed.entry.digest for signed in kept)]
            if self._decides(digests, seq, kept[0]):
                self.held_back = []
                taken = self.take(kept, seq)
                if taken.appended:
                    return taken
        if not self.elsewhere():
            return None
        for source, candidate in self.branches:
            seq = candidate[0].seq
            if seq > self.have:
                continue
            taken = self._other_branch(candidate, 0, None, source)
            if taken.set_aside is not None or taken.appended:
                return taken
        return None

    def _conflict_proof(self, held: SignedEntry, signed: SignedEntry) -> Stop | None:
        """wire.md §5.5 "Overlaps": a different entry for a seq held, both signed by the same seat's
        signer, proves that signer signed two moves for one seq: the game stops. Otherwise (another
        seat; one seat's entries signed by two keys, as the runner's move of a seat and the seat's own
        ``handback`` of itself, §5.6 "Taking a seat back"; or a held table draw, which nobody signs) it
        is just another branch or bad input."""
        assert self.header is not None
        seq, seat = signed.seq, signed.entry.seat
        key = self.header.keys[self.signer_at(seq, seat)]
        game = self.header.game
        proof = (seat == held.entry.seat and held.sig is not None and signed.sig is not None
                 and verify_entry(key, game, signed.entry, signed.sig) and verify_entry(key, game, held.entry, held.sig))
        if not proof:
            return None
        return Stop("conflict", signed, held, f"seat {seat} signed two different entries for seq {seq}")

    def take_back_draw(self, handover: SignedEntry, batch: Sequence[SignedEntry] = ()) -> bool:
        """wire.md §5.7 "A draw racing a handover": this peer's last entry is a draw, and *handover*,
        for the same seq, is accepted in the state before it (and vouched for, :meth:`vouched`; *batch*:
        it and the entries that came after it): the draw is taken back (from the log, the game and the
        file) and the handover appended. Returns whether it was."""
        header = self.header
        assert header is not None and self.entries
        game = self.replayed(len(self.entries) - 1)
        if not self.vouched(game, batch or (handover,)):
            return False
        try:
            admit_entry(game, header, handover)
        except ProtocolError:
            return False
        seq = handover.seq
        self.persistence.on_take_back(seq)
        self.entries.pop()
        self.game = game
        if self.votes is not None:
            self.votes.follow(game, self.entries)
        self.append(handover)
        log.info("%s: a handover beat the draw of seq %d; the draw is taken back", self.name, seq)
        return True

    def vouched(self, game: Game, batch: Sequence[SignedEntry]) -> bool:
        """wire.md §5.6 "What the others check": whether this peer takes the first entry of *batch*
        (the entries of a message from it on), to follow *game*, as far as who may give a seat away
        goes: anything but a ``handover`` or a seat's ``handback`` of itself is; one this peer vouches for
        (:attr:`vet`) is; one
        it does not is taken only once the seats' votes it holds commit it, the digests of *batch*
        being its branch (§5.9: the table took it; a peer coming back after it was made takes it so)."""
        move = batch[0].entry.move
        if self.vet is None or not (isinstance(move, HandOver) or (isinstance(move, HandBack) and move.by is not None)):
            return True
        seq = batch[0].seq
        if (seq > self.have or self.passed_over != seq) and self.vet(game, move):
            return True  # (against a draw held after passing it over once: the draw may have its votes)
        if self.votes is None:
            return False
        digests = [*game.digests, *(signed.entry.digest for signed in batch)]
        if self._decides(digests, seq, batch[0]):
            return True
        self.passed_over = seq
        self.note_parting(seq)
        self.held_back = list(batch[:MAX_HELD_BACK])
        return False

    def signer_at(self, seq: int, seat: int) -> int:
        """The seat whose key signed *seat*'s entry *seq*: *seat*, or the taker of the last ``handover``
        of *seat* made before *seq* unless a ``handback`` gave it back since (log.md §6)."""
        signer = seat
        for signed in self.entries[: seq - 1]:
            move = signed.entry.move
            if isinstance(move, HandOver) and move.seat == seat:
                signer = move.by
            elif isinstance(move, HandBack) and move.seat == seat:
                signer = seat
        return signer

    def race_answer(self, seq: int | None) -> Literal["send", "want"] | None:
        """wire.md §5.7 "A draw racing a handover", seen in a handshake or heartbeat: the peer's digest
        at its last seq *seq* differs from ours. If our entry there is a handover, ``"send"`` it
        from *seq* (the peer takes it in place of its draw); if it is a draw, ``"want"`` theirs from
        *seq* (their handover replaces it); else ``None``: a plain mismatch."""
        if seq is None or not 1 <= seq <= self.have:
            return None
        move = self.entries[seq - 1].entry.move
        if isinstance(move, HandOver):
            return "send"
        if isinstance(move, DrawTile):
            return "want"
        return None

    # ------------------------------------------------------------------ votes (wire.md §5.9)

    @property
    def vote_seq(self) -> int:
        """The seq this peer's seats vote for: its last entry's, but for a table draw at the end (a
        draw may still be taken back for a handover, §5.7, so no seat vouches for it until an entry
        follows it), unless this peer passed over a handover for that seq (:attr:`passed_over`): it
        takes the handover instead only once it is committed, and the votes settle which (§5.9)."""
        seq = self.have
        while seq and isinstance(self.entries[seq - 1].entry.move, DrawTile) and seq != self.passed_over:
            seq -= 1
        return seq

    def vote(self, keys: Mapping[int, SeatKey]) -> list[Ack]:
        """The votes of the seats whose keys are in *keys* for this log as it is now, and at the seq
        where another branch parts from it (:attr:`partings`, wire.md §5.9 "The tie-break") if they have
        not voted there yet, each seat where its vote is its own or given to it (a laptop that gave its
        votes still votes before the give's seq); nothing when there is nothing new to say. The commit
        index follows."""
        if self.votes is None or self.game is None or self.desync is not None:
            return []
        votes, digests, seq = self.votes, self.game.digests, self.vote_seq
        acks: list[Ack | None] = []
        if seq:
            # A seat that gave its vote on this branch votes no more after the give's seq, but still
            # at a seq before it: where another branch parts there, its first vote settles the tie.
            for at in (seq, *(p for p in sorted(self.partings) if self.commit_index < p <= seq)):
                holding = votes.holding(digests, at)
                mine = {seat: key for seat, key in keys.items() if seat in holding}
                if mine:
                    acks.append(votes.cast(mine, at, digests[at]) if at == seq else votes.cast_at(mine, at, digests[at]))
        self.recount()
        return [ack for ack in acks if ack is not None]

    @property
    def sealer(self) -> bytes | None:
        """The key that sealed the header held (the table's host, wire.md §4.2), once checked."""
        return self.seal.key if self.seal is not None else None

    @property
    def votes_version(self) -> tuple[int, int, tuple[int, ...]] | None:
        """Changes whenever :meth:`votes_to_pass` would (``None`` before the header)."""
        return None if self.votes is None else (self.votes.version, self.commit_index, tuple(sorted(self.partings)))

    def votes_to_pass(self) -> tuple[Ack, ...]:
        """What a player passes on with its heartbeat (wire.md §4.11): the newest vote of every seat
        held, the certificate of the commit index, and where another branch parts from this log every
        seat's first vote there (§5.9 "The tie-break"); each ``Ack`` once."""
        votes = self.votes
        out: list[Ack] = []
        if votes is not None:
            gives = votes.gives()
            given = Ack(votes=(), gives=gives) if gives else None
            firsts = [ack for parting in sorted(self.partings) for ack in votes.firsts(parting)]
            for ack in (votes.newest(), self.certificate, *firsts, given):
                if ack is not None and ack not in out:
                    out.append(ack)
        return tuple(out)

    def note_parting(self, seq: int) -> None:
        """Another branch parts from this log at *seq*, where its entry is pending (:attr:`partings`).
        Room is made first by forgetting the seqs where nothing parts any more (no batch kept parts
        there, nor the handover passed over: their senders took this log's branch since, or sent
        another), then, if needed, the highest."""
        partings = self.partings
        if seq <= self.commit_index or seq in partings:
            return
        partings.add(seq)
        if len(partings) > SPLIT_SEQS:
            live = self.branches.partings(self.entries) | {seq}
            if self.passed_over is not None:
                live.add(self.passed_over)
            partings.intersection_update(live)
        while len(partings) > SPLIT_SEQS:
            partings.discard(max(partings))

    def take_votes(self, votes: Iterable[Vote], gives: Iterable[Give] = ()) -> tuple[list[Vote | Give], bool]:
        """Takes votes, and votes given, from a peer: those that were news, and whether one did not
        verify (the sender is refused ``bad-signature``: the others of the message are not looked at)."""
        news: list[Vote | Give] = []
        if self.votes is None:
            return news, False
        for vote in votes:
            verdict = self.votes.take(vote)
            if verdict == "bad":
                return news, True
            if verdict == "news":
                news.append(vote)
        for give in gives:
            verdict = self.votes.take_give(give)
            if verdict == "bad":
                return news, True
            if verdict == "news":
                news.append(give)
        if news:
            self.recount()
        return news, False

    def recount(self) -> bool:
        """Recomputes the commit index from the votes held; returns whether it grew."""
        if self.votes is None or self.game is None:
            return False
        committed = self.votes.committed(self.game.digests)
        if committed <= self.commit_index:
            return False
        self._committed(committed)
        return True

    def _committed(self, seq: int) -> None:
        """The commit index is *seq* now: its certificate is kept from the votes held (before newer
        votes of its seats push those out, :data:`~carcnet.net.quorum.VOTES_KEPT`)."""
        assert self.votes is not None and self.game is not None
        self.commit_index = seq
        self.certificate = self.votes.certificate(self.game.digests, seq) if seq else None
        self.votes.raise_floor(seq)
        self.partings.difference_update([parting for parting in self.partings if parting <= seq])
        self.branches.settle(self.entries, seq)  # what parts where the log is committed lost for good
        if self.held_back and self.held_back[0].seq <= seq:
            self.held_back = []
        if self.passed_over is not None and self.passed_over <= seq:
            self.passed_over = None

    def elsewhere(self) -> bool:
        """Whether votes held could commit another branch where this log's entries are pending (it is
        worth asking a peer for its entries from :attr:`commit_index` + 1)."""
        if self.votes is None or self.game is None:
            return False
        return self.votes.elsewhere(self.game.digests, self.commit_index + 1)

    # ------------------------------------------------------------------ serving

    def batches(self, start: int) -> list[Entries]:
        """The ``entries`` messages that carry every entry from seq *start* on, at most
        :data:`~carcnet.net.messages.MAX_ENTRIES` each."""
        have = self.have
        return [
            Entries(from_seq=first, entries=tuple(self.entries[first - 1 : min(first + MAX_ENTRIES - 1, have)]))
            for first in range(max(start, 1), have + 1, MAX_ENTRIES)
        ]

    def replayed(self, count: int) -> Game:
        """The game after the first *count* entries of the log, replayed (they were checked)."""
        assert self.header is not None
        game = Game(self.header.header.setup())
        for signed in self.entries[:count]:
            game.apply(signed.entry.move)
        return game


def _follows(game: Game, header: WireHeader, signed: SignedEntry) -> bool:
    """Whether *signed* is the next entry of *game*'s log, as the game checks it (on a copy)."""
    try:
        admit_entry(game.copy(), header, signed)
    except ProtocolError:
        return False
    return True
