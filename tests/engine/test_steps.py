"""Steps: an expansion's questions to a seat inside a turn (``Phase.STEP``; docs/architecture.md,
"Expansions: the hook and how to add one"). The builder's second tile (Traders & Builders, rules 5)
asks the seat whose turn it is; the questions The Princess & the Dragon will ask (the dragon moved by
every seat in turn) are asked of other seats. A test-only expansion, the relay, asks the next two
seats in turn at the end of every turn: who answers, who signs, the handover of the seat asked, a
copy taken mid-question, and a replay all follow the seat asked, not the seat whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from carcnet.engine import Game, GameSetup, HandOver, IllegalMoveError, Phase, PlaceTile, Position, replay
from carcnet.engine.events import Event
from carcnet.engine.expansion import Expansion, GameState, build_hooks
from carcnet.engine.expansions import REGISTRY
from carcnet.engine.moves import Move
from carcnet.engine.setup import GameSetup as Setup


@dataclass(frozen=True, slots=True)
class Baton:
    """The relay's answer: the seat asked passes the baton on."""

    def __str__(self) -> str:
        return "baton"


class RelayState:
    __slots__ = ("passed",)

    def __init__(self, players: int) -> None:
        self.passed: list[int] = []

    def copy(self) -> RelayState:
        other = RelayState(0)
        other.passed = self.passed[:]
        return other


@dataclass(frozen=True, slots=True)
class Leg:
    """One leg of the relay: *seat* must pass the baton."""

    seat: int
    slot: int
    draws: ClassVar[bool] = False

    def words(self) -> str:
        return f"relay by={self.seat}"

    def legal_moves(self, game: GameState) -> list[Move]:
        return [Baton()]  # type: ignore[list-item]

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        if not isinstance(move, Baton):
            raise IllegalMoveError("wrong-phase", f"{move}: seat {self.seat} must pass the baton first")
        game.ext[self.slot].passed.append(self.seat)
        return False


class Relay(Expansion):
    """Test only: at the end of every turn the next two seats in turn pass a baton."""

    name = "relay"
    title = "the relay"
    option = "river"

    @classmethod
    def active(cls, rules: Any, version: int) -> bool:
        return True

    def new_state(self, players: int) -> RelayState:
        return RelayState(players)

    def turn_end(self, game: GameState, events: list[Event]) -> bool:
        for k in (1, 2):
            game.push_step(Leg((game.seat + k) % game.players, self.slot))
        return False


@pytest.fixture
def relay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games of this test play the relay beside the expansions of their rules."""
    monkeypatch.setattr(Setup, "hooks", lambda self: build_hooks(self.rules, self.rules_version, (*REGISTRY, Relay)))


def _after_first_turn(players: int = 3) -> Game:
    game = Game(GameSetup(players=players, seed=4))
    game.apply(game.legal_moves()[0])
    game.apply(game.legal_moves()[-1])  # the skip: the turn ends, the relay asks
    return game


def test_each_seat_asked_answers_in_turn_and_signs_its_answer(relay: None) -> None:
    game = _after_first_turn()
    assert game.phase is Phase.STEP and game.seat == 0 and game.actor == 1
    assert game.state_line().startswith("step relay by=1 seat=0 drawn=- ")
    assert game.legal_moves() == [Baton()] and game.author(Baton()) == (1, 1)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"only the seat to play \(1\)") as refused:
        game.apply(HandOver(0, "greedy", 2))  # seat 0's turn, but seat 1 is asked
    assert refused.value.reason == "bad-handover"
    with pytest.raises(IllegalMoveError, match="seat 1 must pass the baton first") as early:
        game.apply(PlaceTile("E", Position(0, -1), 0))
    assert early.value.reason == "wrong-phase" and game.actor == 1
    game.apply(Baton())  # type: ignore[arg-type]
    assert game.phase is Phase.STEP and game.actor == 2 and game.author(Baton()) == (2, 2)  # type: ignore[arg-type]
    game.apply(Baton())  # type: ignore[arg-type]
    assert game.phase is Phase.PLACE_TILE and game.seat == 1 and game.actor == 1
    assert game.ext[game.expansion_slot(Relay)].passed == [1, 2]


def test_the_seat_asked_can_be_handed_over_and_its_bot_s_runner_signs(relay: None) -> None:
    game = _after_first_turn()
    game.apply(HandOver(1, "greedy", 0))  # seat 1, asked, is gone: seat 0 runs its bot
    assert game.author(Baton()) == (1, 0)  # type: ignore[arg-type]
    game.apply(Baton())  # type: ignore[arg-type]
    assert game.actor == 2 and game.author(Baton()) == (2, 2)  # type: ignore[arg-type]


def test_a_copy_mid_question_plays_on_alone_and_a_replay_reaches_the_same_digests(relay: None) -> None:
    game = _after_first_turn()
    other = game.copy()
    other.apply(Baton())  # type: ignore[arg-type]
    assert game.actor == 1 and other.actor == 2 and game.steps != other.steps
    for played in (game, other):
        assert replay(played.setup, played.moves).digests == played.digests
    for _ in range(60):  # on, to a placement: every turn ended with two legs of the relay
        game.apply(game.legal_moves()[0])
    for _ in range(4):
        if game.phase is Phase.PLACE_TILE:
            break
        game.apply(game.legal_moves()[0])
    assert game.phase is Phase.PLACE_TILE
    assert replay(game.setup, game.moves).digests == game.digests
    placed = sum(isinstance(m, PlaceTile) for m in game.moves)
    assert sum(isinstance(m, Baton) for m in game.moves) == 2 * placed
