"""Provides the checks a peer makes before it takes a header, an entry or a seed (``protocol/wire.md``
§5.3–5.5): :func:`check_header`, :func:`check_seal`, :func:`admit_entry`, :func:`compare_have` and the
commitments of a locked table (:class:`CommitRound`). Without I/O; the connection state machine they sit beside is
:mod:`carcnet.net.protocol`, the session that calls them :mod:`carcnet.net.sync`.
"""

from __future__ import annotations

from collections.abc import Sequence

from carcnet.engine import Event as EngineEvent
from carcnet.engine import Game
from carcnet.log import LogError
from carcnet.log.store import apply_entry

from .framing import ProtocolError
from .messages import Commit, Seal, SignedEntry, WireHeader
from .signing import sealed_game_id, verify_commit, verify_seal

__all__ = ["CommitRound", "admit_entry", "check_header", "check_seal", "compare_have"]


def check_header(header: WireHeader, *, game: str) -> Game:
    """Checks a header received in a ``welcome`` or ``start`` (``wire.md`` §5.4) and returns the game
    at its setup. The message checks (one key per seat, nonces matching commitments, the seed from the
    nonces) were made when it was decoded; this adds the game id and the engine's setup digest.

    Raises:
        ProtocolError: ``"wrong-game"``: another game id; ``"bad-header"``: this engine computes
            another setup digest (another deck or start state).
    """
    if header.game != game:
        raise ProtocolError("wrong-game", f"the header is of game {header.game}, not {game}")
    state = Game(header.header.setup())
    if state.digests[0] != header.header.digest:
        raise ProtocolError(
            "bad-header",
            f"the header's setup digest {header.header.digest.hex()[:16]}… differs from this engine's "
            f"{state.digests[0].hex()[:16]}…",
            0,
        )
    return state


def check_seal(header: WireHeader, seal: Seal | None) -> None:
    """Checks that *seal* is the game's host's seal of *header* (``wire.md`` §4.2 "The game id",
    §5.4): its key and nonce give the header's game id, and its signature over the header's
    fingerprint verifies under its key. What a spectator asks of every header before it takes it: the
    game id it was given commits to the host's key, so only the host can seal a header under it.

    Raises:
        ProtocolError: ``"bad-header"``: no seal, a key and nonce that give another game id, or a
            signature that does not verify (a header the host did not start).
    """
    game = header.game
    if seal is None:
        raise ProtocolError("bad-header", f"the header comes without its host's seal: nothing shows it is game {game}'s")
    try:
        sealed = sealed_game_id(seal.key, seal.nonce)
    except ValueError:
        sealed = None
    if sealed != game:
        raise ProtocolError("bad-header", f"the seal's key and nonce make game id {sealed}, not {game}: another host's")
    if not verify_seal(seal.key, seal.nonce, game, header.fingerprint, seal.sig):
        raise ProtocolError("bad-header", "the seal does not sign this header: its host started another one")


def admit_entry(game: Game, header: WireHeader, signed: SignedEntry) -> list[EngineEvent]:
    """Checks the next entry of *game* and applies it (``wire.md`` §5.4): in order its seq, its
    signature under the header's key for its seat, its author, the engine's legality, the digest.

    Returns the engine's events for the move.

    Raises:
        ProtocolError: ``"bad-seq"`` (``seq`` = the one expected), ``"not-your-turn"`` (a seat that is
            not to play, or no such seat), ``"bad-signature"``, ``"illegal-move"`` (the engine's reason
            in the message): *game* is unchanged. ``"desync"``: the move was applied but the digest
            differs from the entry's.

    Warning:
        After ``"desync"`` the game holds a move its log does not: rebuild it from the log.
    """
    try:
        return apply_entry(game, header.header, signed.entry)
    except LogError as exc:  # the log's reasons, in the same order (log.md §8 = wire.md §5.4)
        code = _WIRE_CODE_OF.get(exc.reason, "bad-message")
        raise ProtocolError(code, str(exc), exc.seq) from None


#: The log's refusal reasons (``carcnet.log.store.apply_entry``) as wire codes (``wire.md`` §8).
_WIRE_CODE_OF = {
    "out-of-sequence": "bad-seq",
    "bad-signature": "bad-signature",
    "forged-seat": "not-your-turn",
    "illegal-move": "illegal-move",
    "chain-broken": "desync",
}


def compare_have(digests: Sequence[bytes], have: int, digest: bytes | None) -> int:
    """Compares what a peer says it holds (``have`` and ``digest`` of its hello, welcome or heartbeat)
    with our digests (``Game.digests``: the setup's, then one per entry), ``wire.md`` §5.5.

    Returns how many of our entries the peer lacks: ``> 0`` we are ahead (send it entries from
    ``have + 1``); ``0`` level; ``< 0`` it is ahead (send ``want`` from our last seq + 1). A peer that
    holds no header (``digest`` ``None``) lacks all our entries (and the header: send a ``welcome`` or
    ``start`` first).

    Raises:
        ProtocolError: ``"desync"`` (``seq`` = *have*): at a seq both hold, the digests differ.
    """
    ours = len(digests) - 1
    if digest is None:
        return ours
    if have <= ours and digests[have] != digest:
        raise ProtocolError(
            "desync", f"at seq {have} the peer's digest {digest.hex()[:16]}… differs from ours", have
        )
    return ours - have


class CommitRound:
    """The commitments of one locked table (``wire.md`` §5.3), without I/O: collects each seat's
    signed chain root (``deck.md`` §5.1) and gives the header's ``commits``.

    Lifecycle: built when the table locks, with the seat keys in seat order; :meth:`commit` for each
    ``commit`` received (or made) until :attr:`committed`. A failure means the round is abandoned
    (the table unlocks and a new round starts from scratch).

    Args:
        game: The game id.
        keys: Each seat's 32-byte public key, in seat order.
    """

    def __init__(self, game: str, keys: Sequence[bytes]) -> None:
        self.game = game
        self.keys = tuple(keys)
        self._commits: list[bytes | None] = [None] * len(self.keys)

    def commit(self, message: Commit) -> bool:
        """Takes a seat's commitment; returns ``False`` for the same one again (relays may repeat it).

        Raises:
            ProtocolError: ``"unexpected-message"``: a seat the table does not have, or a different
                commitment for a seat that made one; ``"bad-signature"``: not signed by the seat's key;
                ``"bad-commit"``: equal to another seat's commitment.
        """
        seat = message.seat
        if seat >= len(self.keys):
            raise ProtocolError("unexpected-message", f"the table has no seat {seat}")
        held = self._commits[seat]
        if held == message.hash:
            return False
        if held is not None:
            raise ProtocolError("unexpected-message", f"seat {seat} has committed already")
        if not verify_commit(self.keys[seat], self.game, seat, message.hash, message.sig):
            raise ProtocolError("bad-signature", f"the commitment of seat {seat} is not signed by its key")
        if message.hash in self._commits:
            raise ProtocolError("bad-commit", f"seat {seat} copied another seat's commitment")
        self._commits[seat] = message.hash
        return True

    def has_committed(self, seat: int) -> bool:
        """Whether *seat* has committed."""
        return self._commits[seat] is not None

    def commit_of(self, seat: int) -> bytes | None:
        """*seat*'s commitment, or ``None`` before it committed."""
        return self._commits[seat]

    @property
    def committed(self) -> bool:
        """Whether every seat has committed (the host may start the game)."""
        return all(c is not None for c in self._commits)

    @property
    def commits(self) -> tuple[bytes, ...]:
        """The commitments in seat order (the header's ``commits``); only once :attr:`committed`."""
        if not self.committed:
            raise ValueError("not every seat has committed")
        return tuple(c for c in self._commits if c is not None)
