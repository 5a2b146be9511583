"""Provides the lines a network table tells its people, in their words, each with the protocol's
account of it for the connection log (a :data:`Line`, as :meth:`~carcnet.table.base.Table._note` takes
it): a seat the table does not take over, a seat that cannot go to a bot, a seat given to one, a part
of a draw that does not come, a refusal before the game, a stop; and how many moves the table has not
confirmed yet, and by whom (:func:`unconfirmed`).

Each line is a whole sentence with named placeholders, so that it can be translated as one; the
account names the protocol's codes, seqs and sections (protocol/wire.md).

>>> not_taken_over("Bob", 1, cut_off=True)[0]
"Not taking Bob's seat over: this laptop is cut off from the table"
>>> part_missing("Bob", 1, draw=12, wait=10.0)
("Waiting for Bob's part of the draw: Bob counts as away until it comes", 'seat 1 withholding its value for draw 12: missing for 10 s (wire.md §5.7 "Withholding")')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from carcnet.i18n import N_, _

if TYPE_CHECKING:
    from carcnet.net.presence import PresenceSnapshot
    from carcnet.net.replica import Desync

    from .netview import NetView

__all__ = [
    "REFUSED", "Line", "Unconfirmed", "asked_for_bot", "handed_over", "hello_text", "not_handed_over",
    "not_taken_over", "part_missing", "refused", "seat_change_failed", "stop_reason", "stopped", "told",
    "unconfirmed",
]

def hello_text(kind: str, game_id: str, port: int | None, resumed: bool) -> str:
    """The first line a table says: the host's, a player's (looking for the table, or *resumed* from its
    save: back on the network) or a spectator's, naming the game and the *port* it listens on (``None``:
    it does not listen)."""
    if kind == "spectator":
        # Translators: {game} is a game's id (hex digits).
        return _("Watching game {game}").format(game=game_id)
    if port is None:
        text = {
            # Translators: {game} is a game's id (hex digits).
            "host": _("Opened the table of game {game}"),
            # Translators: {game} is a game's id (hex digits).
            "resumed": _("Back on the network with game {game}"),
            # Translators: {game} is a game's id (hex digits).
            "player": _("Looking for the table of game {game}"),
        }
    else:
        text = {
            # Translators: {game} is a game's id (hex digits), {port} the port number it listens on.
            "host": _("Opened the table of game {game} on port {port}"),
            # Translators: {game} is a game's id (hex digits), {port} the port number it listens on.
            "resumed": _("Back on the network with game {game} on port {port}"),
            # Translators: {game} is a game's id (hex digits), {port} the port number it listens on.
            "player": _("Looking for the table of game {game} on port {port}"),
        }
    return text["resumed" if kind == "player" and resumed else kind].format(game=game_id, port=port)


#: What people read, and the protocol's account of it for the connection log.
Line = tuple[str, str]

#: The refusals after which a peer without the game's header cannot go on with the peer that sent them
#: (wire.md §6 codes), and what its people read instead of the code.
REFUSED = {
    "no-seat": N_("the table has no seat for you (it is full, or its game has started); you can watch it instead"),
    "wrong-game": N_("the laptop reached plays another game"),
    "bad-version": N_("that table plays with another version of carcnet"),
    "bad-header": N_("the game that table sent does not check out here"),
}


def refused(code: str, said: str) -> Line:
    """The table refused this peer before the game with *code* (a key of :data:`REFUSED`) and the
    text *said*."""
    return _(REFUSED[code]), f"refused: {code}: {said}"


def not_taken_over(name: str, seat: int, *, cut_off: bool) -> Line:
    """The bot seat *seat* of *name* is away long enough, but this laptop does not see most of the
    table (wire.md §5.6 rules 2-3), being *cut_off* from it or on its smaller side."""
    # Translators: {name} is a player's name.
    line = (_("Not taking {name}'s seat over: this laptop is cut off from the table") if cut_off
            # Translators: {name} is a player's name.
            else _("Not taking {name}'s seat over yet: this laptop is in touch with too few of the other players"))
    return (line.format(name=name),
            f"takeover of seat {seat} refused: this peer does not see most of the table (cut off: {cut_off}; "
            "wire.md §5.6 rules 2-3)")


def not_handed_over(name: str, seat: int, why: str, presence: PresenceSnapshot, now: float) -> Line:
    """*seat* of *name* may not go to a bot: *why* is the refusal in people's words
    (:meth:`PresenceSnapshot.handover_refusal`); the account gives what presence saw at *now*."""
    # Translators: {name} is a player's name; {why} says why, e.g. "Bob's laptop is still in touch with the table".
    return (_("{name}'s seat cannot go to a bot: {why}").format(name=name, why=why),
            f"handover of seat {seat} refused (wire.md §5.6 \"Which seats\", §5.7): away {presence.away(now)}, "
            f"withholding {presence.withholding(now)}, sees most of the table {presence.sees_most()}")


def handed_over(name: str, seat: int, bot: str, by: int, *, withheld: bool) -> Line:
    """*seat* of *name* went to a *bot* run here, by seat *by*; *withheld*: taken while its laptop held
    back its draw value (the price of a veto: never given back)."""
    # Translators: {name} is a player's name, {bot} a bot's kind (greedy, random).
    return (_("{name}'s seat is played by a {bot} bot from this laptop now").format(name=name, bot=bot),
            f"handover of seat {seat} to {bot} by seat {by} "
            + ("(withheld: never given back, wire.md §5.7)" if withheld else "(wire.md §5.6)"))


def asked_for_bot(name: str, seat: int, runner: str | None) -> Line:
    """This laptop's person let a bot play *seat* (of *name*), and the laptop of *runner* (a player's
    name; ``None``: a laptop that plays only bots) is the table's taker: it is asked to run the bot
    (wire.md §5.6 "Who makes the handover").

    >>> asked_for_bot("Ann", 0, "Bob")[0]
    "A bot will play for Ann from Bob's laptop"
    """
    if runner is None:
        # Translators: {name} is a player's name.
        text = _("A bot will play for {name} from another laptop at the table").format(name=name)
    else:
        # Translators: {name} and {runner} are players' names.
        text = _("A bot will play for {name} from {runner}'s laptop").format(name=name, runner=runner)
    return text, f"handover of seat {seat} asked of the taker in this peer's heartbeats (wire.md §5.6)"


def seat_change_failed(change: str, name: str, seat: int, why: object) -> Line:
    """This laptop could not carry out a seat change it meant to make by itself: *change* is
    ``"take-over"`` (a bot seat whose laptop is gone), ``"take-back"`` (this laptop's own seat, its
    runner gone) or ``"give-back"`` (a seat run here, its player back); *why* is the refusal in the
    session's or the engine's terms, for the account only. The game goes on; the table tries again at
    the next change.

    >>> seat_change_failed("take-back", "Ann", 0, "seat 0 is played by its own player")[0]
    "Ann's seat could not be taken back from here yet: the table will try again"
    """
    text = {
        # Translators: {name} is a player's name.
        "take-over": N_("{name}'s seat could not be given to a bot from here yet: the table will try again"),
        # Translators: {name} is a player's name.
        "take-back": N_("{name}'s seat could not be taken back from here yet: the table will try again"),
        # Translators: {name} is a player's name.
        "give-back": N_("{name}'s seat could not be given back yet: the table will try again"),
    }[change]
    move = {"take-over": "handover", "take-back": "handback by the seat itself", "give-back": "handback"}[change]
    return _(text).format(name=name), f"{move} of seat {seat} not made: {why}"


def taken_back(name: str, seat: int, runner: str) -> Line:
    """*seat* (of *name*), played by a bot of *runner*'s laptop while this one was away, is played here
    again: that laptop is gone, so this one took the seat back itself."""
    # Translators: {runner} and {name} are players' names.
    return (_("{runner}'s laptop is gone: {name}'s seat is played from this laptop again").format(runner=runner, name=name),
            f"handback of seat {seat} by the seat itself: its runner is gone (wire.md §5.6 \"Taking a seat back\")")


def part_missing(name: str, seat: int, *, draw: int, wait: float) -> Line:
    """The value of *seat* (of *name*) for draw *draw* has been missing for *wait* seconds: the seat
    counts as away (it withholds it, wire.md §5.7)."""
    # Translators: {name} is a player's name.
    return (_("Waiting for {name}'s part of the draw: {name} counts as away until it comes").format(name=name),
            f"seat {seat} withholding its value for draw {draw}: missing for {wait:g} s (wire.md §5.7 \"Withholding\")")


def stop_reason(desync: Desync) -> str:
    """Why the game stopped here, for people: this peer's log and the one of the peer *desync* names
    parted (the :class:`Desync` itself is the report)."""
    # Translators: {peer} is a player's name (of a laptop), {seq} a move's number.
    return _("this laptop and {peer}'s no longer agree on move {seq}").format(peer=desync.peer, seq=desync.seq)


def stopped(desync: Desync) -> Line:
    """The game stopped here (:func:`stop_reason`); the account is the report."""
    # Translators: {why} says why, e.g. "this laptop and Bob's no longer agree on move 12".
    return _("The game stopped: {why}").format(why=stop_reason(desync)), str(desync)


def told(details: Callable[[str, str], None], line: Line) -> str:
    """Gives the account of *line* to *details* (a table's :attr:`~carcnet.table.base.Table.details`)
    and returns what people read: for a line told otherwise than as a note (a refusal raised)."""
    details(*line)
    return line[0]


@dataclass(frozen=True, slots=True)
class Unconfirmed:
    """The entries of a network table this peer holds that are not committed yet (wire.md §5.9).

    Attributes:
        pending: How many (:attr:`NetView.pending`; a table draw at the end not counted).
        own: How many of them are moves of the seats this peer plays (its signed entries).
        by: The seats whose votes do not cover this peer's last entry voted for, in seat order: the
            players whose laptops have not confirmed it yet (this peer's own seats included while
            their votes are on their way).
    """

    pending: int
    own: int
    by: tuple[int, ...]


def unconfirmed(view: NetView) -> Unconfirmed:
    """What *view*'s session holds that the table has not committed yet; nothing before the game."""
    replica, mine = view.session.replica, set(view.my_seats)
    votes, game = replica.votes, replica.game
    if votes is None or game is None:
        return Unconfirmed(0, 0, ())
    own = sum(1 for signed in replica.entries[replica.commit_index:replica.vote_seq]
              if signed.sig is not None and signed.entry.seat in mine)
    covered = set(votes.voters(game.digests, replica.vote_seq))
    return Unconfirmed(view.pending, own, tuple(seat for seat in range(votes.players) if seat not in covered))
