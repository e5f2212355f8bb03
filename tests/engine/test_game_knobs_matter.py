"""Every game knob ``/set`` accepts changes how some report reads; one it refuses as
unread (``Knob.needs``: ``hands`` without ``end hands``) changes none (issue 39: a knob
answered 已设置 must do something).

Reports are made as the button flow makes them (random taps of each step, in runs
of a hand repeated), read at every table size by a game with the knob at its default and one with it
set: the parse (or its refusal), the scores the standings add, the end of a session
(``Game.check_session``), a two-player match's series check, the flow's steps.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator

import pytest

from engine.errors import ConfigError, ReportError
from engine.formats.series import check_report, series_note
from engine.games import GAMES
from engine.games.base import Game, Knob

SAMPLES = 300
# Reports of states random runs seldom reach, read before the random ones: 掼蛋's side A&C
# at A fails there three times (its partner last), then B&D climb past what is left.
FAR = {"guandan": ("; ".join(["A C B D"] * 4 + ["A B D C"] * 3 + ["B D A C"] * 2),)}
AnyGame = Game  # type: ignore[type-arg]


def others(knob: Knob) -> tuple[str, ...]:
    """Values other than the default: every choice, or a count halved and doubled."""
    if knob.choices:
        return tuple(c for c in knob.choices if c != knob.default)
    low, high = max(knob.minimum, int(knob.default) // 2), max(4, int(knob.default) * 2)
    return tuple(str(v) for v in (low, high) if str(v) != knob.default)


def report(game: AnyGame, seats: int, rng: random.Random) -> str:
    """Up to forty hands as the flow's taps compose them, in runs of one hand repeated (a
    side winning again and again reaches a game's far states: level A, a bust, a target)."""
    hands: list[str] = []
    for _ in range(rng.randint(1, 4)):
        answers: dict[str, list[str]] = {}
        for step in game.flow(seats):
            if step.per_seat:
                answers[step.name] = [rng.choice(step.choices) for _ in range(seats)]
            elif step.multi:
                many = rng.random() < 0.5  # a finishing order, else mostly a tap or none
                count = rng.randint(0, len(step.choices)) if many else rng.choice((0, 1))
                answers[step.name] = rng.sample(step.choices, count)
            else:
                answers[step.name] = [rng.choice(step.choices)]
        hands += [game.compose(answers, seats)] * rng.randint(1, 10)
    return "; ".join(hands)


def reading(game: AnyGame, text: str, seats: int) -> Hashable:
    """What the bot makes of ``text`` at a table of ``seats`` under ``game``'s knobs."""
    shape = tuple((s.name, s.choices) for s in game.flow(seats))
    try:
        outcome = game.parse(text, seats)
        scores = game.round_scores(outcome, seats)
        if seats == 2:
            level = check_report(series_note(game), game, outcome)
            return shape, scores, level
        game.check_session(outcome, seats)
        return shape, scores, game.is_zero_sum()
    except ReportError as e:
        return shape, e.args


def readings(options: dict[str, str], other: dict[str, str], game: type[AnyGame]) -> bool:
    """Whether some report reads differently under ``options`` and ``other``: the far
    ones, then made-up ones (composed by either game's flow: a knob may add a step)."""
    rng = random.Random(f"{game.key}{sorted(options.items())}{sorted(other.items())}")
    a, b = game(options), game(other)

    def samples() -> Iterator[tuple[int, str]]:
        yield from ((game.seat_counts[0], text) for text in FAR.get(game.key, ()))
        for _ in range(SAMPLES):
            seats = rng.choice(game.seat_counts)
            yield seats, report(rng.choice((a, b)), seats, rng)

    return any(reading(a, text, seats) != reading(b, text, seats) for seats, text in samples())


def knob_cases() -> list[tuple[type[AnyGame], Knob, str]]:
    return [(g, k, v) for g in GAMES for k in g.knobs for v in others(k)]


@pytest.mark.parametrize(
    ("game", "knob", "value"),
    knob_cases(),
    ids=[f"{g.key}-{k.name}-{v}" for g, k, v in knob_cases()],
)
def test_a_game_knob_matters_where_it_is_read_and_is_refused_where_not(
    game: type[AnyGame], knob: Knob, value: str
) -> None:
    needed = dict([knob.needs]) if knob.needs else {}
    assert readings(needed, {**needed, knob.name: value}, game), f"{knob.name}={value} idle"
    game({**needed, knob.name: value}).check_knob(knob.name)  # read: accepted
    if not knob.needs or knob.needs[1] == next(
        k.default for k in game.knobs if k.name == knob.needs[0]
    ):
        return
    idle = game({knob.name: value})  # the knob it needs at its default: nothing reads it
    with pytest.raises(ConfigError) as refused:
        idle.check_knob(knob.name)
    assert refused.value.args[0] == "knob-unread-needs"
    assert not readings({}, {knob.name: value}, game), f"{knob.name}={value} read though refused"


def test_every_knob_a_game_reads_only_sometimes_names_a_knob_and_value_it_has() -> None:
    for game in GAMES:
        for knob in game.knobs:
            if knob.needs:
                other = next(k for k in game.knobs if k.name == knob.needs[0])
                assert knob.needs[1] in other.choices, (game.key, knob.name)
