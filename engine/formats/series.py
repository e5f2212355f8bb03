"""How long a match is, as a round's notes say it (docs/rules/two-player.md), so the chat can
say the rule and every report is checked against it; match points for Swiss and teams."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from engine.errors import ReportError
from engine.games.base import Game, Outcome
from engine.model import PlayerId, RoundRecord, TableResult, TableStatus, TournamentState
from engine.numbers import plain
from engine.standings import net_scores, penalties_by_round

NOTE = re.compile(r"best-of-(\d+)")
HANDS = re.compile(r"hands-(\d+)")
TABLE_MATCH = re.compile(r"match-of-(\d+)")
HALF = Decimal("0.5")
SUDDEN = "sudden"  # the round note of "two games, then one more until someone wins"
SERIES_NOTES = (SUDDEN, *(f"best-of-{n}" for n in (1, 3, 5, 7)))


def note_number(notes: Sequence[str], pattern: re.Pattern[str]) -> int | None:
    """N of the first note ``pattern`` reads (``best-of-N``, ``hands-N``, ``match-of-N``)."""
    return next((int(m.group(1)) for m in map(pattern.fullmatch, notes) if m), None)


def series_length(notes: Sequence[str]) -> int | None:
    """N of a ``best-of-N`` note, or None when the round plays no series."""
    return note_number(notes, NOTE)


def hands_note(hands: int) -> str:
    """The note of a round whose tables each play exactly ``hands`` hands (积分晋级)."""
    return f"hands-{hands}"


def check_hands(notes: Sequence[str], outcome: Outcome) -> None:
    """Refuse a report of another number of hands than the round's ``hands-N`` note
    says. A lone ``total`` stands for the table's whole session (it counts no hands)."""
    wanted = note_number(notes, HANDS)
    lone_total = outcome.hands == 1 and outcome.text.startswith("total ")
    if wanted is not None and outcome.hands != wanted and not lone_total:
        raise ReportError("hands-count", hands=wanted, got=outcome.hands)


def series_note(game: Game[Any], stage_best_of: int | None = None) -> tuple[str, ...]:
    """The note of a round of two-player matches: the game's ``series`` knob, else the stage's."""
    choice = game.options.get("series")
    if choice == SUDDEN:
        return (SUDDEN,)
    if isinstance(choice, str) and choice.startswith("bo"):
        return (f"best-of-{choice[2:]}",)
    return (f"best-of-{stage_best_of}",) if stage_best_of else ()


def point_unit(game: Game[Any]) -> Decimal:
    """The points one game shares between the two players: 1, or 2 with ``points=2/1/0``
    (docs/rules/two-player.md#game-points)."""
    return Decimal(2) if game.options.get("points") == "2/1/0" else Decimal(1)


def check_series(best_of: int, outcome: Outcome, unit: Decimal = Decimal(1)) -> None:
    """Refuse more games than ``best_of``, or one after a player had more than half (五局三胜);
    a shorter series stands. Every game shares ``unit`` points."""
    played = sum(outcome.scores, Decimal(0)) / unit
    if played > best_of:
        raise ReportError("series-too-long", best_of=best_of, games=plain(played))
    won = [Decimal(0), Decimal(0)]
    for number, hand in enumerate(outcome.per_hand, 1):
        if max(won) * 2 > best_of * unit:
            raise ReportError("series-over", best_of=best_of, game=number, after=number - 1)
        won = [a + b for a, b in zip(won, hand, strict=True)]


def check_sudden(games: int, outcome: Outcome) -> bool:
    """Refuse a game after a sudden-death match was decided; True while it is undecided."""
    won = [Decimal(0), Decimal(0)]
    for number, hand in enumerate(outcome.per_hand, 1):
        if number > games and won[0] != won[1]:
            raise ReportError(
                "match-over", game=number, after=number - 1, score=games_won(won, outcome)
            )
        won = [a + b for a, b in zip(won, hand, strict=True)]
    hands = outcome.per_hand or (outcome.scores,)
    totals = [sum(side, Decimal(0)) for side in zip(*hands, strict=True)]
    return len(hands) < games or totals[0] == totals[1]


def games_won(points: Sequence[Decimal], outcome: Outcome) -> str:
    """``2–0``, ``1.5–0.5``: points as games (every game shares the same points)."""
    unit = sum(outcome.per_hand[0], Decimal(0)) if outcome.per_hand else Decimal(1)
    return "–".join(plain(p / (unit or 1)) for p in points)


def check_report(notes: Sequence[str], game: Game[Any], outcome: Outcome) -> bool:
    """Refuse a two-player report the round's series cannot produce; True when it
    leaves a sudden-death match level (the table plays on, the next report adds to it)."""
    best_of = series_length(notes)
    if best_of is not None:
        check_series(best_of, outcome, point_unit(game))
        return False
    return SUDDEN in notes and check_sudden(int(str(game.options.get("games", 2))), outcome)


def match_of(
    record: RoundRecord, result: TableResult, pens: Mapping[tuple[int, PlayerId], Decimal]
) -> dict[PlayerId, Decimal]:
    """A two-player match as 1, ½ or 0 per player, after the round's penalties; a walkover
    wins for who stayed, a double forfeit or an unfinished match counts for nobody."""
    players = result.table.players
    if len(players) != 2:
        return {}
    if result.status is TableStatus.FORFEIT:
        stayed = [p for p in players if p not in result.forfeited]
        return {p: Decimal(p in stayed) for p in players} if len(stayed) == 1 else {}
    net = net_scores(record, result, pens)
    if not net:
        return {}
    a, b = (net[p] for p in players)
    if a == b:
        return dict.fromkeys(players, HALF)
    return {players[0]: Decimal(a > b), players[1]: Decimal(b > a)}


def _tally(state: TournamentState, worth: Callable[[Decimal], Decimal]) -> dict[PlayerId, Decimal]:
    """Every player's sum of ``worth`` over their matches (1, ½ or 0 each)."""
    pens = penalties_by_round(state)
    out = dict.fromkeys(state.players, Decimal(0))
    for rec in state.rounds:
        for res in rec.results:
            for p, won in match_of(rec, res, pens).items():
                out[p] = out.get(p, Decimal(0)) + worth(won)
    return out


def matches_won(state: TournamentState) -> dict[PlayerId, Decimal]:
    """Matches each player won outright (a level match is won by nobody; a walkover is)."""
    return _tally(state, lambda won: Decimal(won == 1))


def match_points(state: TournamentState, game: Game[Any]) -> dict[PlayerId, Decimal]:
    """Match points (docs/rules/two-player.md#swiss): a won match is worth what a won game
    is (``point_unit``), a level one half that, a lost one or a bye nothing."""
    unit = point_unit(game)
    return _tally(state, lambda won: won * unit)


def hands_won(per_hand: Sequence[Sequence[Decimal]]) -> list[Decimal]:
    """Per seat, the hands it won: a hand is won by the seats with its top score (both
    farmers when the farmers win a 斗地主 hand); a hand all level is won by nobody."""
    won = [Decimal(0)] * len(per_hand[0])
    for hand in per_hand:
        best = max(hand)
        if min(hand) != best:
            won = [w + (s == best) for w, s in zip(won, hand, strict=True)]
    return won


def sets_length(notes: Sequence[str]) -> bool:
    """Whether a round's notes set how long a table plays (``hands-N``, ``one-hand``,
    ``match-of-N``): the game's own end of a session (``Game.check_session``) is not read."""
    return "one-hand" in notes or any(
        note_number(notes, p) is not None for p in (HANDS, TABLE_MATCH)
    )


def table_match(notes: Sequence[str], outcome: Outcome) -> tuple[Decimal, ...] | None:
    """The scores a table of 3–4 seats adds under a match note (docs/rules/multistage.md#match),
    refusing a report the match cannot produce; ``None``: the report's own scores count.
    ``match-of-N`` scores the hands each seat won, even if the clock stopped it (以当前比分)."""
    if "one-hand" in notes:
        if outcome.hands != 1:
            raise ReportError("one-hand", hands=outcome.hands)
        return None
    best_of = note_number(notes, TABLE_MATCH)
    if best_of is None:
        return None
    if not outcome.per_hand or len(outcome.per_hand) != outcome.hands:
        raise ReportError("match-hands", best_of=best_of)
    if outcome.hands > best_of:
        raise ReportError("series-too-long", best_of=best_of, games=outcome.hands)
    for number in range(2, outcome.hands + 1):
        if max(hands_won(outcome.per_hand[: number - 1])) * 2 > best_of:
            raise ReportError("series-over", best_of=best_of, game=number, after=number - 1)
    return tuple(hands_won(outcome.per_hand))
