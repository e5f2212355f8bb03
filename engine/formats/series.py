"""How long a two-player match is: a best-of-N series, or two games then one more at a
time until someone wins (docs/rules/two-player.md).

A format that plays two-player tables puts the rule in each round's notes, so the chat
can say it and every report is checked against it:

* ``best-of-N`` (一局定胜负 / 五局三胜制 / 七局四胜制; docs/rules/groups.md#best-of): the report
  lists the series' games. Every game shares one point between the two players (1-0, 0-1, ½-½), so
  the points in a report are the games played. A report is refused when it holds more than N games,
  or a game after one player already had more than N/2 points: the series was decided by then
  (五局三胜: the first to three wins). A shorter series stands (若比分
  未达到三局，则以当前比分决出胜负).
* ``sudden`` (象棋, 五子棋, 军棋: 头两盘…如两盘战平则赛第三盘…直到分出胜负): at least
  ``games`` games (the game's knob, 2), then one game at a time until the totals differ.
  A game after that is refused (``1-0; 1-0; 1-0`` was decided 2–0). A report that leaves
  the match level is not its end: the table plays its next game and reports it, and the
  report is added to the games before (:func:`check_report` says so).

Which of the two a round plays is the game's ``series`` knob (:func:`series_note`):
``sudden`` (the default of the two-player games), ``bo1``…``bo7`` for every match, or
``stages`` for the lengths the format sets per stage. Every format a two-player game can
be run in puts the note on its rounds: single elimination and groups (their playoffs and
round robins too), Swiss and teams, table knockout and score stages
(docs/rules/two-player.md#formats).

Where the standings add rounds up (Swiss, teams), a match counts as a match, not as its
games (docs/rules/two-player.md#swiss): :func:`match_points` gives the winner a win's
points, a level match half each, the games' points being the first tie-break.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from engine.errors import ReportError
from engine.games.base import Game, Outcome
from engine.model import PlayerId, RoundRecord, TableResult, TableStatus, TournamentState
from engine.standings import net_scores, penalties_by_round

NOTE = re.compile(r"best-of-(\d+)")
HANDS = re.compile(r"hands-(\d+)")
HALF = Decimal("0.5")
SUDDEN = "sudden"  # the round note of "two games, then one more until someone wins"
SERIES_NOTES = (SUDDEN, *(f"best-of-{n}" for n in (1, 3, 5, 7)))


def in_matches(game: Game[Any]) -> bool:
    """Whether every round of a format without stage lengths plays the game as matches
    (its ``series`` knob is ``sudden`` or ``bo<N>``; ``stages`` there means no set length)."""
    return bool(series_note(game))


def series_length(notes: Sequence[str]) -> int | None:
    """N of a ``best-of-N`` note, or None when the round plays no series."""
    for note in notes:
        match = NOTE.fullmatch(note)
        if match:
            return int(match.group(1))
    return None


def hands_note(hands: int) -> str:
    """The note of a round whose tables each play exactly ``hands`` hands (积分晋级:
    初赛、复赛、决赛均进行十局比赛; its play-off 再进行五局加赛)."""
    return f"hands-{hands}"


def check_hands(notes: Sequence[str], outcome: Outcome) -> None:
    """Refuse a report of another number of hands than the round's ``hands-N`` note
    says. A lone ``total`` stands for the table's whole session (it counts no hands)."""
    wanted = next((int(m.group(1)) for n in notes if (m := HANDS.fullmatch(n))), None)
    if wanted is None or outcome.hands == wanted:
        return
    if outcome.hands == 1 and outcome.text.startswith("total "):
        return
    raise ReportError("hands-count", hands=wanted, got=outcome.hands)


def series_note(game: Game[Any], stage_best_of: int | None = None) -> tuple[str, ...]:
    """The note a round of two-player matches carries: the game's ``series`` knob, or
    (``stages``, and games without the knob) the stage's own length when it has one."""
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
    """Refuse a two-player series report that a best-of-``best_of`` cannot produce; every
    game shares ``unit`` points (2 under ``points=2/1/0``), so the points are games × unit."""
    played = sum(outcome.scores, Decimal(0)) / unit
    if played > best_of:
        raise ReportError("series-too-long", best_of=best_of, games=_plain(played))
    won = [Decimal(0), Decimal(0)]
    for number, hand in enumerate(outcome.per_hand, 1):
        if max(won) * 2 > best_of * unit:
            raise ReportError("series-over", best_of=best_of, game=number, after=number - 1)
        won = [a + b for a, b in zip(won, hand, strict=True)]


def sudden_level(games: int, outcome: Outcome) -> bool:
    """Whether a sudden-death match is still undecided after the reported games: fewer
    than ``games`` played, or the totals level."""
    hands = outcome.per_hand or (outcome.scores,)
    totals = [sum(side, Decimal(0)) for side in zip(*hands, strict=True)]
    return len(hands) < games or totals[0] == totals[1]


def check_sudden(games: int, outcome: Outcome) -> None:
    """Refuse a game reported after the match was decided: ``games`` played and the
    totals apart (the refusal names the game and the score that decided it)."""
    won = [Decimal(0), Decimal(0)]
    for number, hand in enumerate(outcome.per_hand, 1):
        if number > games and won[0] != won[1]:
            raise ReportError(
                "match-over", game=number, after=number - 1, score=games_won(won, outcome)
            )
        won = [a + b for a, b in zip(won, hand, strict=True)]


def games_won(points: Sequence[Decimal], outcome: Outcome) -> str:
    """``2–0``, ``1.5–0.5``: points as games (every game shares the same points)."""
    unit = sum(outcome.per_hand[0], Decimal(0)) if outcome.per_hand else Decimal(1)
    return "–".join(_plain(p / (unit or 1)) for p in points)


def _plain(x: Decimal) -> str:
    return str(int(x)) if x == x.to_integral() else format(x.normalize(), "f")


def check_report(notes: Sequence[str], game: Game[Any], outcome: Outcome) -> bool:
    """Refuse a two-player report the round's series cannot produce; True when it
    leaves a sudden-death match level (the table plays on, the next report adds to it)."""
    best_of = series_length(notes)
    if best_of is not None:
        check_series(best_of, outcome, point_unit(game))
        return False
    if SUDDEN not in notes:
        return False
    games = int(str(game.options.get("games", 2)))
    check_sudden(games, outcome)
    return sudden_level(games, outcome)


def match_of(
    record: RoundRecord, result: TableResult, pens: Mapping[tuple[int, PlayerId], Decimal]
) -> dict[PlayerId, Decimal]:
    """One two-player match as 1 (won), ½ (level) or 0 (lost) per player, from its games'
    points after the round's penalties (docs/rules/two-player.md#swiss). A walkover: the
    player who stayed won, the forfeiter lost; a table both forfeited counts for nobody.
    A match not settled yet (level, waiting for its next game) counts nothing."""
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


def matches_won(state: TournamentState) -> dict[PlayerId, Decimal]:
    """Matches each player won outright (a level match is won by nobody; a walkover is)."""
    pens = penalties_by_round(state)
    out = dict.fromkeys(state.players, Decimal(0))
    for rec in state.rounds:
        for res in rec.results:
            for p, won in match_of(rec, res, pens).items():
                out[p] = out.get(p, Decimal(0)) + (won == 1)
    return out


def match_points(state: TournamentState, game: Game[Any]) -> dict[PlayerId, Decimal]:
    """Every player's match points over the event: a won match is worth what a won game
    is (the game's ``points`` knob: 1, or 2 with ``2/1/0``), a level one half that, a
    lost one or a bye nothing (docs/rules/two-player.md#swiss)."""
    unit = point_unit(game)
    pens = penalties_by_round(state)
    out = dict.fromkeys(state.players, Decimal(0))
    for rec in state.rounds:
        for res in rec.results:
            for p, won in match_of(rec, res, pens).items():
                out[p] = out.get(p, Decimal(0)) + won * unit
    return out


TABLE_MATCH = re.compile(r"match-of-(\d+)")


def hands_won(per_hand: Sequence[Sequence[Decimal]]) -> list[Decimal]:
    """Per seat, the hands it won: a hand is won by the seats with its top score (both
    farmers when the farmers win a 斗地主 hand); a hand all level is won by nobody."""
    won = [Decimal(0)] * len(per_hand[0])
    for hand in per_hand:
        best = max(hand)
        if min(hand) != best:
            won = [w + (s == best) for w, s in zip(won, hand, strict=True)]
    return won


def table_match(notes: Sequence[str], outcome: Outcome) -> tuple[Decimal, ...] | None:
    """A table of 3–4 seats under a match note (docs/rules/multistage.md#match): the scores
    the standings add, after refusing a report the match cannot produce. ``one-hand``: one
    hand, its points. ``match-of-N``: up to N hands, reported hand by hand, none after a
    seat won more than N/2 (五局三胜); the table's score is the hands each seat won, a
    match the clock stopped early counting the hands so far (以当前比分决出胜负).
    ``None``: the round plays no match (the report's own scores)."""
    if "one-hand" in notes:
        if outcome.hands != 1:
            raise ReportError("one-hand", hands=outcome.hands)
        return None
    found = next((m for m in map(TABLE_MATCH.fullmatch, notes) if m), None)
    if found is None:
        return None
    best_of = int(found.group(1))
    if not outcome.per_hand or len(outcome.per_hand) != outcome.hands:
        raise ReportError("match-hands", best_of=best_of)
    if outcome.hands > best_of:
        raise ReportError("series-too-long", best_of=best_of, games=outcome.hands)
    for number in range(2, outcome.hands + 1):
        if max(hands_won(outcome.per_hand[: number - 1])) * 2 > best_of:
            raise ReportError("series-over", best_of=best_of, game=number, after=number - 1)
    return tuple(hands_won(outcome.per_hand))
