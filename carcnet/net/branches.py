"""Provides :class:`Branches`: the batches of entries of other branches of the log a peer keeps while
the seats' votes do not yet commit them (``protocol/wire.md`` §5.9 "Healing"). Sans-I/O.

A split three ways or more leaves a peer on a losing branch with the winner's entries from one peer
and a loser's from another, and a peer that asked for a branch's entries may never be sent them again:
so the last batch of each sender is kept (wire.md §5.9 "Healing, the budgets": one per peer), and
looked at again when votes come. The first entry of each batch that follows this peer's log where they
part is a **head**: the tie-break counts votes for heads and for this log's own entries only (§5.9
"The tie-break": a vote for an entry after a prefix set aside since is no choice there).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .messages import MAX_ENTRIES, SignedEntry

__all__ = ["MAX_BRANCHES", "MAX_CANDIDATE", "Branches"]

#: Most entries of another branch a peer keeps per sender while votes may still commit them (wire.md
#: §5.9): more than a whole game's log.
MAX_CANDIDATE = 4 * MAX_ENTRIES

#: Most senders whose last batch of another branch a peer keeps (wire.md §5.9 "Healing, the
#: budgets"): the other players of a table of six.
MAX_BRANCHES = 5


class Branches:
    """Per sender (its identity key, ``b""`` when unknown), its last batch of another branch, oldest
    sender first, at most :data:`MAX_BRANCHES` senders of at most :data:`MAX_CANDIDATE` entries each;
    and per sender its head: the seq where its branch parts from this log, this log's digest before
    it (``digests[seq - 1]``), and the head's digest."""

    def __init__(self) -> None:
        self._batches: dict[bytes, tuple[SignedEntry, ...]] = {}
        self._heads: dict[bytes, tuple[int, bytes, bytes]] = {}

    def __iter__(self) -> Iterator[tuple[bytes, tuple[SignedEntry, ...]]]:
        """The senders and their batches, oldest first (a copy: the caller may keep or drop meanwhile)."""
        return iter(list(self._batches.items()))

    def get(self, source: bytes) -> tuple[SignedEntry, ...]:
        """*source*'s batch (empty when none is kept)."""
        return self._batches.get(source, ())

    def keep(self, source: bytes, entries: Sequence[SignedEntry]) -> None:
        """Keeps *entries* as *source*'s batch; the sender kept longest ago makes room."""
        self._batches.pop(source, None)
        self._batches[source] = tuple(entries[:MAX_CANDIDATE])
        while len(self._batches) > MAX_BRANCHES:
            self.drop(next(iter(self._batches)))

    def drop(self, source: bytes) -> None:
        """Forgets *source*'s batch and head."""
        self._batches.pop(source, None)
        self._heads.pop(source, None)

    def head(self, source: bytes, seq: int, before: bytes, digest: bytes) -> None:
        """*source*'s branch parts from this log at *seq*, after the entry whose digest is *before*,
        with the entry whose digest is *digest* (checked: it follows this log's entries before it)."""
        self._heads[source] = (seq, before, digest)

    def heads_at(self, seq: int, digests: Sequence[bytes]) -> set[bytes]:
        """The digests of the heads at *seq* that follow this log as it is now (*digests*: its
        ``Game.digests``, the setup's first)."""
        return {digest for at, before, digest in self._heads.values() if at == seq and digests[seq - 1] == before}

    def head_entries(self, seq: int, digests: Sequence[bytes]) -> dict[bytes, SignedEntry]:
        """The heads at *seq* that follow this log as it is now (:meth:`heads_at`), by digest, each the
        entry its batch holds (for the tie-break's look at what each entry shows, wire.md §5.9)."""
        out: dict[bytes, SignedEntry] = {}
        for source, (at, before, digest) in self._heads.items():
            if at != seq or digests[seq - 1] != before:
                continue
            for signed in self._batches.get(source, ()):
                if signed.seq == seq and signed.entry.digest == digest:
                    out[digest] = signed
        return out

    def continues(self, source: bytes, entries: Sequence[SignedEntry], log: Sequence[SignedEntry]) -> bool:
        """Whether *entries* come right after *source*'s batch, which this *log* does not end the same
        way (the next message of an answer that comes in several)."""
        batch = self._batches.get(source)
        if not batch or not entries or entries[0].seq != batch[-1].seq + 1:
            return False
        first = entries[0].seq
        if first <= len(log) and log[first - 1] == entries[0]:
            return False  # it is this log's own entry: its digest chains this log's prefix, not the batch's
        end = batch[-1].seq
        return end > len(log) or log[end - 1] != batch[-1]

    def partings(self, log: Sequence[SignedEntry]) -> set[int]:
        """The seqs where the batches kept part from *log* (a batch that *log* holds whole parts nowhere)."""
        out = set()
        for batch in self._batches.values():
            parts = next((signed.seq for signed in batch if signed.seq > len(log) or log[signed.seq - 1] != signed), None)
            if parts is not None:
                out.add(parts)
        return out

    def settle(self, log: Sequence[SignedEntry], index: int) -> None:
        """Forgets the batches that part from *log* at a seq its commit *index* covers: they can never
        be taken (wire.md §5.9: committed entries are never replaced)."""
        for source, batch in list(self._batches.items()):
            parts = next((signed.seq for signed in batch if signed.seq > len(log) or log[signed.seq - 1] != signed), None)
            if parts is not None and parts <= index:
                self.drop(source)
