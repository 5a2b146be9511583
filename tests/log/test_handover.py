"""The ``handover`` move (protocol/log.md §6): the engine's rules for it, its log form, and how a signed
log checks the entries of a seat handed over (signed by the taker's key)."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from carcnet.engine import (
    Game,
    GameSetup,
    HandBack,
    HandOver,
    IllegalMoveError,
    SeatHandedBack,
    SeatHandedOver,
    SkipMeeple,
    parse_move,
)
from carcnet.log import LogEntry, LogError, LogHeader, Seat
from carcnet.log.codec import LogFormatError, from_wire, to_wire
from carcnet.log.store import apply_entry
from carcnet.net.signing import SeatKey, sign_entry


def _keys(n: int) -> list[SeatKey]:
    return [SeatKey.from_seed(hashlib.sha256(f"handover seat {i}".encode()).digest()) for i in range(n)]


def _header(n: int = 3) -> tuple[LogHeader, list[SeatKey]]:
    keys = _keys(n)
    seats = [Seat(f"P{i}", c) for i, c in zip(range(n), ("red", "blue", "green"), strict=False)]
    return LogHeader.new(seats, seed=7, keys=[k.public for k in keys], created=0), keys


def _first_legal(game: Game):
    from carcnet.bots import make_bot

    return make_bot("random", len(game.moves)).choose(game.view())


def test_only_the_seat_to_play_can_be_handed_over_once_by_another_seat() -> None:
    game = Game(GameSetup(players=3, seed=7))
    assert game.seat == 0
    for move, reason in (
        (HandOver(1, "greedy", 0), "only the seat to play"),
        (HandOver(0, "greedy", 0), "cannot take over"),
        (HandOver(0, "Greedy!", 1), "bot's name"),
        (HandOver(0, "greedy", 5), "must be a seat"),
    ):
        with pytest.raises(IllegalMoveError, match=reason):
            game.apply(move)
    assert game.moves == []
    events = game.apply(HandOver(0, "greedy", 1))
    assert events == [SeatHandedOver(0, "greedy", 1)] and game.seat == 0 and game.signer(0) == 1
    with pytest.raises(IllegalMoveError, match="already"):
        game.apply(HandOver(0, "random", 2))
    game.apply(_first_legal(game))  # the turn goes on as before: seat 0 places
    game.apply(SkipMeeple())
    with pytest.raises(IllegalMoveError, match="cannot take over"):
        game.apply(HandOver(1, "greedy", 0))  # a seat handed over runs no bot for others


def test_the_move_has_a_log_form_and_a_text_form_that_read_back() -> None:
    move = HandOver(1, "greedy", 0)
    assert to_wire(move) == {"type": "handover", "seat": 1, "bot": "greedy", "by": 0}
    assert from_wire(to_wire(move)) == move
    assert parse_move(str(move)) == move == parse_move("handover 1 greedy by 0")


def test_a_signed_log_checks_the_handed_over_seat_under_the_takers_key(tmp_path) -> None:
    header, keys = _header()
    game = Game(header.setup())

    def entry(move, seat, key):
        g = Game(header.setup())
        for m in game.moves:
            g.apply(m)
        g.apply(move)
        e = LogEntry(len(game.moves) + 1, seat, move, g.digest)
        return dataclasses.replace(e, sig=sign_entry(key, header.game, e))

    apply_entry(game, header, entry(_first_legal(game), 0, keys[0]))
    apply_entry(game, header, entry(SkipMeeple(), 0, keys[0]))
    assert game.seat == 1
    # Seat 1 is gone: seat 2 takes it over. Signed by seat 1's key, or claimed by seat 0: refused.
    handover = HandOver(1, "greedy", 2)
    with pytest.raises(LogError) as forged:
        apply_entry(game, header, entry(handover, 0, keys[0]))
    assert forged.value.reason == "forged-seat"
    with pytest.raises(LogError) as badsig:
        apply_entry(game, header, entry(handover, 2, keys[1]))
    assert badsig.value.reason == "bad-signature"
    apply_entry(game, header, entry(handover, 2, keys[2]))
    # Seat 1's next move: signed by seat 1's own key is refused now, by seat 2's key taken.
    move = _first_legal(game)
    with pytest.raises(LogError) as stale:
        apply_entry(game, header, entry(move, 1, keys[1]))
    assert stale.value.reason == "bad-signature" and "for seat 1" in str(stale.value)
    apply_entry(game, header, entry(move, 1, keys[2]))
    assert game.signer(1) == 2 and len(game.moves) == 4


def test_a_seat_handed_over_is_given_back_at_its_turn_before_it_places() -> None:
    game = Game(GameSetup(players=3, seed=7))
    with pytest.raises(IllegalMoveError, match="played by its own player"):
        game.apply(HandBack(0))
    game.apply(HandOver(0, "greedy", 1))
    assert game.author(HandBack(0)) == (1, 1) and game.author(SkipMeeple()) == (0, 1)
    game.apply(_first_legal(game))
    with pytest.raises(IllegalMoveError, match="before it places"):
        game.apply(HandBack(0))  # mid-turn: the bot finishes the turn
    game.apply(SkipMeeple())
    with pytest.raises(IllegalMoveError, match="at its turn"):
        game.apply(HandBack(0))  # seat 1's turn now
    for _ in range(4):  # seats 1 and 2 play; seat 0's turn again
        game.apply(_first_legal(game))
    assert game.seat == 0 and game.drawn is not None
    for bad in (HandBack(3), HandBack(-1)):
        with pytest.raises(IllegalMoveError, match="must be a seat"):
            game.apply(bad)
    events = game.apply(HandBack(0))
    assert events == [SeatHandedBack(0, 1)] and game.signer(0) == 0 and game.handovers[0] is None
    assert game.seat == 0 and game.drawn is not None  # the turn and the phase are unchanged
    assert game.author(_first_legal(game)) == (0, 0)
    game.apply(HandOver(0, "random", 2))  # and it may be handed over again
    assert game.signer(0) == 2


def test_a_handback_has_a_log_form_and_a_text_form_that_read_back() -> None:
    move = HandBack(2)
    assert to_wire(move) == {"type": "handback", "seat": 2}
    assert from_wire(to_wire(move)) == move
    assert parse_move(str(move)) == move == parse_move("handback 2")


def test_a_seat_takes_itself_back_with_a_handback_of_its_own_at_its_turn() -> None:
    game = Game(GameSetup(players=3, seed=7))
    game.apply(HandOver(0, "greedy", 1))
    assert game.author(HandBack(0, 0)) == (0, 0) and game.author(HandBack(0)) == (1, 1)
    with pytest.raises(IllegalMoveError, match="only the seat itself"):
        game.apply(HandBack(0, 2))
    runners = Game(GameSetup(players=3, seed=7))
    runners.apply(HandOver(0, "greedy", 1))
    runners.apply(HandBack(0))
    events = game.apply(HandBack(0, 0))
    assert events == [SeatHandedBack(0, 1)] and game.signer(0) == 0 and game.handovers[0] is None
    # the same seat given back, but another move: the two differ in the digest, so the table can tell
    # them apart where both are made at one seq (wire.md §5.9)
    assert game.digest != runners.digest
    assert game.handovers == runners.handovers and game.seat == runners.seat and game.drawn == runners.drawn


def test_a_seat_takes_itself_back_mid_turn_when_its_runner_left_after_placing() -> None:
    """log.md §6: the runner placed the seat's tile and left before its deploy, which only the
    runner's key could sign; the seat's own handback is legal then (the commit model's ``split 0|12,
    hand 1 0, move 1, bye 1 quit``), the runner's own is not (it finishes the turn)."""
    game = Game(GameSetup(players=3, seed=7))
    game.apply(HandOver(0, "greedy", 1))
    game.apply(_first_legal(game))  # the runner's bot placed seat 0's tile
    with pytest.raises(IllegalMoveError, match="before it places"):
        game.apply(HandBack(0))
    phase = game.phase
    events = game.apply(HandBack(0, 0))
    assert events == [SeatHandedBack(0, 1)] and game.phase is phase and game.seat == 0
    assert game.author(_first_legal(game)) == (0, 0)  # seat 0 deploys, signed by its own key
    later = Game(GameSetup(players=3, seed=7))
    later.apply(HandOver(0, "greedy", 1))
    later.apply(_first_legal(later))
    later.apply(SkipMeeple())  # the runner finished seat 0's turn: seat 1's now
    with pytest.raises(IllegalMoveError, match="at its turn"):
        later.apply(HandBack(0, 0))


def test_a_seats_own_handback_has_a_log_form_and_a_text_form_that_read_back() -> None:
    move = HandBack(1, 1)
    assert to_wire(move) == {"type": "handback", "seat": 1, "by": 1}
    assert from_wire(to_wire(move)) == move and str(move) == "handback 1 by 1"
    assert parse_move(str(move)) == move
    with pytest.raises(LogFormatError, match="the seat itself"):
        from_wire({"type": "handback", "seat": 1, "by": 0})
    with pytest.raises(LogFormatError):
        from_wire({"type": "handback", "seat": 1, "by": 1, "bot": "greedy"})


def _seat_0_run_by_seat_2():
    """A signed game of three seats in which seat 0 was handed over to seat 2's bot, a round later (seat
    0's turn again, its entries signed by seat 2): ``(header, keys, game, entry)``, where
    ``entry(move, seat, key)`` is the next entry, named *seat*, signed with *key*."""
    header, keys = _header()
    game = Game(header.setup())

    def entry(move, seat, key):
        g = Game(header.setup())
        for m in game.moves:
            g.apply(m)
        g.apply(move)
        e = LogEntry(len(game.moves) + 1, seat, move, g.digest)
        return dataclasses.replace(e, sig=sign_entry(key, header.game, e))

    apply_entry(game, header, entry(HandOver(0, "greedy", 2), 2, keys[2]))
    for _ in range(6):  # a round: seat 0 (signed by seat 2), seats 1 and 2
        move = _first_legal(game)
        seat, signer = game.author(move)
        apply_entry(game, header, entry(move, seat, keys[signer]))
    assert game.seat == 0 and game.signer(0) == 2
    return header, keys, game, entry


def test_a_signed_log_takes_the_seats_own_handback_under_its_own_key_only(tmp_path) -> None:
    header, keys, game, entry = _seat_0_run_by_seat_2()
    with pytest.raises(LogError) as runner:  # the runner may not sign the seat's own taking back
        apply_entry(game, header, entry(HandBack(0, 0), 0, keys[2]))
    assert runner.value.reason == "bad-signature"
    with pytest.raises(LogError) as named:
        apply_entry(game, header, entry(HandBack(0, 0), 2, keys[2]))
    assert named.value.reason == "forged-seat"
    apply_entry(game, header, entry(HandBack(0, 0), 0, keys[0]))
    assert game.signer(0) == 0 and game.handovers[0] is None


def test_a_signed_log_takes_the_handback_from_the_bots_runner_only(tmp_path) -> None:
    header, keys, game, entry = _seat_0_run_by_seat_2()
    # The runner's handback is the runner's: seat 0's entries are signed by seat 2 now (the signature is
    # checked first), and seat 2 named as seat 0 is a forged seat.
    with pytest.raises(LogError) as own:
        apply_entry(game, header, entry(HandBack(0), 0, keys[0]))
    assert own.value.reason == "bad-signature"
    with pytest.raises(LogError) as named:
        apply_entry(game, header, entry(HandBack(0), 0, keys[2]))
    assert named.value.reason == "forged-seat"
    with pytest.raises(LogError) as badsig:
        apply_entry(game, header, entry(HandBack(0), 2, keys[0]))
    assert badsig.value.reason == "bad-signature"
    apply_entry(game, header, entry(HandBack(0), 2, keys[2]))
    move = _first_legal(game)
    with pytest.raises(LogError) as stale:  # the runner's key no longer signs for seat 0
        apply_entry(game, header, entry(move, 0, keys[2]))
    assert stale.value.reason == "bad-signature"
    apply_entry(game, header, entry(move, 0, keys[0]))
    assert game.signer(0) == 0
