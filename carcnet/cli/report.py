"""Provides text and JSON accounts of a game: the move-by-move transcript and the final scores.

Used by ``carcnet demo``, ``carcnet replay`` and ``carcnet verify``. Pure functions of the engine's
results; they print nothing themselves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from carcnet.engine import (
    CATEGORIES,
    DrawTile,
    Event,
    FairyScored,
    FlockScored,
    Game,
    GameSetup,
    HandBack,
    HandOver,
    Move,
    Phase,
    PlaceTile,
    PointsScored,
    TileSetAside,
    TokenDrawn,
)
from carcnet.i18n import _, listed, ngettext, pgettext
from carcnet.tui.render import with_article
from carcnet.tui.words import score_words

__all__ = ["category_word", "final_lines", "result_dict", "transcript"]


def category_word(category: str) -> str:
    """A feature kind of the score table (a key of the engine's ``CATEGORIES``) in the player's
    language, in lowercase as the table heads its column; another as it is."""
    words = {
        # Translators: a column of the final score table: the points of roads (as for cities, cloisters…)
        "road": pgettext("score category", "road"),
        "city": pgettext("score category", "city"),
        "cloister": pgettext("score category", "cloister"),
        # Translators: The Abbot's gardens, a column of the final score table
        "garden": pgettext("score category", "garden"),
        # Translators: the farms (fields), a column of the final score table
        "field": pgettext("score category", "field"),
        # Translators: Traders & Builders' goods (wine, grain, cloth), a column of the final score table
        "goods": pgettext("score category", "goods"),
        # Translators: Hills & Sheep's flocks scored, a column of the final score table
        "sheep": pgettext("score category", "sheep"),
        # Translators: The Princess & the Dragon's fairy (its points), a column of the final score table
        "fairy": pgettext("score category", "fairy"),
    }
    return words.get(category, category)


def _bot_words(kind: str) -> str:
    """A bot of *kind* with its article: ``a greedy bot``, ``an easy bot``."""
    words = {"random": _("a random bot"), "greedy": _("a greedy bot"), "easy": _("an easy bot"),
             "medium": _("a medium bot"), "hard": _("a hard bot"), "expert": _("an expert bot")}
    return words[kind] if kind in words else with_article(kind + " bot")


def transcript(setup: GameSetup, moves: Sequence[Move], names: Sequence[str]) -> Iterator[str]:
    """Replays *moves* and yields one line per turn, plus a line per scoring and set-aside tile, in
    the player's language (the moves in the log's notation, the scorings as the engine describes
    them).

    Raises ``IllegalMoveError`` at a bad move (callers replay only checked logs).
    """
    game = Game(setup)
    width = max(len(n) for n in names)
    turn = 0
    line = ""
    told: list[Event] = []  # the turn's events, told once it ends (after an expansion's questions)
    for move in moves:
        seat = game.seat
        asked = bool(game.steps)  # the move answers an expansion's step: a question, a token drawn
        events = game.apply(move)
        if isinstance(move, HandOver):
            # Translators: a seat handed over to a bot: {player} is the seat's player, {bot} a bot with its
            # article ("a greedy bot"), {runner} the player whose laptop runs it.
            yield "     " + _("{player}'s seat goes to {bot}, run by {runner}").format(
                player=names[move.seat], bot=_bot_words(move.bot), runner=names[move.by])
            continue
        if isinstance(move, HandBack):
            yield "     " + _("{player} is back and plays their seat again").format(player=names[move.seat])
            continue
        if isinstance(move, DrawTile) and not asked:  # a tile's draw (deck.md §5): only a tile set aside is news
            for ev in events:
                if isinstance(ev, TileSetAside):
                    yield "     " + _set_aside(ev.tile, names[ev.seat])
            continue
        if isinstance(move, PlaceTile):
            turn += 1
            line = f"{turn:3d}. {names[seat]:<{width}}  {move}"
            told.extend(events)  # the fairy's point as the turn begins (The Princess & the Dragon)
            continue
        if str(move) != "skip" and not isinstance(move, DrawTile):
            line += f", {move}"
        told.extend(events)
        if game.steps:  # the turn goes on: its line once it ends
            continue
        yield line
        events, told = told, []
        for ev in events:
            if isinstance(ev, TokenDrawn):
                yield "     " + _token_words(ev, names)
            elif isinstance(ev, PointsScored | FlockScored | FairyScored):
                who = listed([names[s] for s in ev.seats])
                if ev.final:
                    # Translators: a scoring of the final scoring: {players} lists who scores, {scoring} is the
                    # points and the feature ("+8: city, 3 tiles, 1 pennant").
                    yield "     " + _("final: {players} {scoring}").format(players=who, scoring=score_words(ev))
                else:
                    # Translators: a scoring during the game: {players} lists who scores, {scoring} is the
                    # points and the feature ("+8: city, 3 tiles, 1 pennant").
                    yield "     " + _("score: {players} {scoring}").format(players=who, scoring=score_words(ev))
            elif isinstance(ev, TileSetAside):
                yield "     " + _set_aside(ev.tile, names[ev.seat])
    if line and game.phase is Phase.PLACE_TILE and isinstance(moves[-1], PlaceTile):
        # Translators: the last turn of an unfinished game, its tile placed and its meeple not yet:
        # {turn} is the turn's line.
        yield _("{turn} (deploy pending)").format(turn=line)


def _token_words(event: TokenDrawn, names: Sequence[str]) -> str:
    """A token drawn from the sheep bag (Hills & Sheep), as the game's log says it."""
    if event.token == "W":
        return _("A wolf! {player}'s flock scatters").format(player=names[event.seat])
    count = int(event.token)
    return ngettext("{player}'s shepherd finds {count} sheep", "{player}'s shepherd finds {count} sheep",
                    count).format(player=names[event.seat], count=count)


def _set_aside(tile: str, player: str) -> str:
    """The line of a tile drawn that fits nowhere."""
    # Translators: {tile} is the tile's code, {player} the player who draws again.
    return _("tile {tile} fits nowhere: set aside, {player} draws again").format(tile=tile, player=player)


def final_lines(game: Game, names: Sequence[str]) -> list[str]:
    """The score table: per seat, points by feature kind (in play + final) and the total."""
    shown = [c for c in CATEGORIES if any(sum(b[c]) for b in game.breakdown)] or ["road", "city"]
    width = max(len(n) for n in names)
    # Translators: the last column of the final score table: a player's points in all.
    total = pgettext("score table", "total")
    head = f"  {'':<{width}}  " + "".join(f"{category_word(c):>10}" for c in shown) + f"{total:>8}"
    lines = [head]
    order = sorted(range(game.players), key=lambda s: (-game.scores[s], s))
    for seat in order:
        cells = "".join(
            f"{'%d+%d' % tuple(game.breakdown[seat][c]) if game.breakdown[seat][c][1] else game.breakdown[seat][c][0]:>10}"
            for c in shown
        )
        # Translators: after a player's row in the final score table: the player won.
        mark = "  " + pgettext("score table", "winner") if seat in game.winners else ""
        lines.append(f"  {names[seat]:<{width}}  {cells}{game.scores[seat]:>8}{mark}")
    # Translators: under the final score table, whose cells read "5+3"; keep a and b as they are.
    lines.append("  " + _("(a+b: a points during the game, b in the final scoring)"))
    return lines


def result_dict(game: Game, names: Sequence[str]) -> dict[str, object]:
    """Machine-readable result: per seat the score and its breakdown by feature kind, and the digest."""
    return {
        "finished": game.phase is Phase.GAME_OVER,
        "moves": len(game.moves),
        "digest": game.digest.hex(),
        "seats": [
            {
                "seat": seat,
                "name": names[seat],
                "score": game.scores[seat],
                "winner": seat in game.winners,
                "breakdown": {c: {"game": a, "final": b} for c, (a, b) in game.breakdown[seat].items()},
            }
            for seat in range(game.players)
        ],
    }
