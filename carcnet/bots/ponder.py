"""Provides :func:`positions_ahead`: the positions a bot may face at its next turn, predicted from a
player's view while the seat before it plays (pondering, ``docs/bots.md``).

While another seat plays, a search bot can think about its own next turn. Two things are unknown:
what that seat will do, and which tile the bot will draw. The first is predicted by the greedy
policy (the search's own model of its opponents): its few best turns; the second is open, so every
design that can be drawn next is taken. The pairs are taken likeliest first (how often a player
plays the policy's first, second, … turn, times the design's copies in the bag). Each prediction is the view the bot
would get if it came true, made from a player's view alone: the face-down tiles are the bag's
contents in canonical order, never their real order.
"""

from __future__ import annotations

from collections.abc import Iterator

from carcnet.engine import Game, Move, Phase, PlaceTile, PlayerView

from .greedy_bot import GreedyBot

__all__ = ["positions_ahead", "predicted_turns"]

#: How likely the seat playing now is to play each of the greedy policy's turns, best first, relative to
#: the first: measured on 324 turns of greedy, medium and random opponents (``benchmarks/bench_ponder.py``;
#: the first is played about 60 % of the time by the stronger ones, the next ones 5-15 % each).
TURN_WEIGHTS = (1.0, 0.25, 0.13, 0.08, 0.05, 0.03)

def predicted_turns(view: PlayerView, policy: GreedyBot, count: int = len(TURN_WEIGHTS)) -> list[list[Move]]:
    """What is left of the turn being played in *view*: its *count* most likely forms, as the greedy
    policy ranks them (:meth:`GreedyBot.ranked_turns`, the best turn of each placement first, as the
    search's candidates are; :meth:`GreedyBot.ranked_follow_ups` once the tile is placed).

    Returns:
        In ``Phase.PLACE_TILE``: lists of a placement and its follow-up (a deploy, the skip, or with
        The Abbot the abbot's move); in ``Phase.DEPLOY``: one-move lists, the follow-ups of the
        placement made; otherwise (the table draws, the game is over) none. Best first.
    """
    game = view.game
    out: list[list[Move]] = []
    if game.phase is Phase.PLACE_TILE:
        seen: set[PlaceTile] = set()
        for _score, place, follow in policy.ranked_turns(game):
            if place in seen:
                continue
            seen.add(place)
            after = game.copy()
            after.apply(place)
            out.append([place, policy.follow_up(after, follow)])
            if len(out) == count:
                break
    elif game.phase is Phase.DEPLOY:
        for _score, follow in policy.ranked_follow_ups(game):
            move = policy.follow_up(game, follow)
            if [move] not in out:
                out.append([move])
            if len(out) == count:
                break
    return out


def positions_ahead(view: PlayerView, seat: int, policy: GreedyBot) -> Iterator[tuple[list[Move], str, int, PlayerView]]:
    """The views *seat* may get at its next turn, if the turn being played in *view* ends in one of
    the ways :func:`predicted_turns` gives.

    Args:
        view: A player's view of the game while another seat plays (read only; a detached view when
            the game moves on meanwhile).
        seat: The bot's seat: the seat that plays after the one playing now.
        policy: The model of the seat playing now.

    Yields:
        ``(turn, design, copies, view)``: for each of the predicted turns and each design that can
        be drawn next (from the first group of the bag that holds tiles: the river's, then the
        land's), the likeliest first (the turn's weight in :data:`TURN_WEIGHTS` times the design's
        copies; ties: the better turn, then by id), the view of the game in which that turn was
        played and that design drawn, equal (board, scores, supplies, the tiles drawn, the bag's
        groups) to :meth:`Game.view` of the real game if both come true. Designs whose position
        would differ in more than that are left out: one that would be set aside (it fits
        nowhere), a turn that ends the game or gives the next turn to another seat.
    """
    game = view.game
    groups = view.groups
    if not groups:
        return
    first = groups[0]
    counts: dict[str, int] = {}
    for letter in first:  # canonical (sorted) order, so the counts are in id order
        counts[letter] = counts.get(letter, 0) + 1
    face_down = [t for group in groups for t in group]
    turns = predicted_turns(view, policy)
    order = sorted(
        ((-TURN_WEIGHTS[k] * copies, k, design, copies) for k in range(len(turns)) for design, copies in counts.items())
    )
    for _weight, k, design, copies in order:
        turn = turns[k]
        ahead = _played(game, turn, design, face_down)
        if ahead is None or ahead.seat != seat:
            continue
        left = list(first)
        left.remove(design)
        expected = tuple(g for g in (tuple(left), *groups[1:]) if g)
        yield turn, design, copies, PlayerView.of(ahead, expected)


def _played(game: Game, rest: list[Move], design: str, face_down: list[str]) -> Game | None:
    """A copy of *game* with *design* drawn next and the *rest* of the turn played; ``None`` unless
    that leaves *design* to place (it fits, the game goes on)."""
    ahead = game.copy()
    i = ahead.deck_index
    order = list(face_down)
    order.remove(design)  # its first copy: in the first group, where the next draw comes from
    ahead.deck = (*ahead.deck[:i], design, *order)
    aside = len(ahead.set_aside)
    for move in rest:
        ahead.apply(move)
    if ahead.phase is not Phase.PLACE_TILE or ahead.drawn != design or len(ahead.set_aside) != aside:
        return None
    return ahead
