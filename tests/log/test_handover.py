"""The ``handover`` move (protocol/log.md §6): the engine's rules for it, its log form, and how a signed
log checks the entries of a seat handed over (signed by the taker's key)."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from carcnet.engine import Game, GameSetup, HandOver, IllegalMoveError, SeatHandedOver, SkipMeeple, parse_move
from carcnet.log import LogEntry, LogError, LogHeader, Seat
from carcnet.log.codec import from_wire, to_wire
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

    return make_bot("random", len(game.moves)).choose(game)


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
