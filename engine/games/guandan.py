"""Guandan 掼蛋, as in docs/rules/guandan.md.

Two partnerships, A&C against B&D, two decks. A hand is reported as the finishing order
of seats, as far as the first player's partner: ``A C`` (A first, partner C second),
``A B C`` (partner third), ``A B D C`` or ``A B D`` (partner last). The first player's side
goes up 3 / 2 / 1 levels when the partner is 2nd / 3rd / 4th (双下升3级), or 5 / 3 / 1 with
``upgrade=5/3/1`` (#upgrade).
Tribute (进贡/还贡) is played at the table; the report carries only the order.

Per report, ``scores`` are the level steps each seat's side went up (0 for the losers).
The match layer replays them (:meth:`Guandan.state`): levels 2→A; A must be passed (the
side on A wins its own A with the partner not last); with ``a_fail=3`` three failed tries
send the side back to 2, by default it stays on A (#passing-a); the match is best of
``games`` (三局两胜 → 3, #match) or decided at time by games then level, and
scores match points ``points`` win/draw/loss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import Knob, Outcome, Step, seat_index, tokens
from engine.games.levels import (
    LEVELS,
    SIDES,
    LevelGame,
    LevelState,
    replay_gains,
    side_of,
    side_scores,
)
from engine.model import SEAT_LETTERS

TOP = len(LEVELS) - 1  # A


@dataclass(frozen=True)
class FinishOrder:
    """Finishing order from first place up to the first player's partner."""

    order: tuple[int, ...]

    @property
    def partner_place(self) -> int:
        """2, 3 or 4."""
        return len(self.order)


class Guandan(LevelGame[FinishOrder]):
    """掼蛋: 2v2, partners opposite; the winners' side climbs by the partner's place."""

    key = "guandan"
    report_example = "A C"
    noshow_minutes = 10  # 迟到10分钟以弃权论: docs/rules/guandan.md#late
    aliases = ("guandan", "掼蛋", "惯蛋", "掼蛋儿")
    seat_counts = (4,)
    partners = SIDES
    default_format = "pairs"
    zero_sum = False
    knobs = (
        Knob("upgrade", "3/2/1", ("3/2/1", "5/3/1"), str),
        Knob("a_fail", "stay", ("stay", "3"), str),
        Knob("games", "3", ("1", "3", "5"), int),
        Knob("points", "2/1/0", ("2/1/0", "3/1/0", "1/0.5/0"), str),
    )

    def parse_hand(self, text: str, seats: int) -> FinishOrder:
        order: list[int] = []
        for token in tokens(text):
            seat = seat_index(token, seats)
            if seat in order:
                raise ReportError("seat-twice", seat=SEAT_LETTERS[seat])
            order.append(seat)
        if not order:
            raise ReportError("empty-report")
        partner = (order[0] + 2) % 4
        if partner in order:
            place = order.index(partner)  # places after the partner's do not matter
            return FinishOrder(tuple(order[: place + 1]))
        if len(order) == 3:  # the partner is the only one left: last
            return FinishOrder((*order, partner))
        raise ReportError("partner-place-missing", seat=SEAT_LETTERS[partner])

    def flow(self, seats: int) -> tuple[Step, ...]:
        """Tap the seats in finishing order, up to the winner's partner."""
        return (Step("order", tuple(SEAT_LETTERS[:seats]), multi=True),)

    def steps(self, partner_place: int) -> int:
        """Levels gained when the partner finishes ``partner_place`` (2, 3 or 4)."""
        table = [int(s) for s in str(self.option("upgrade")).split("/")]
        return table[partner_place - 2]

    def score_hand(self, hand: FinishOrder, seats: int) -> tuple[Decimal, ...]:
        return side_scores(side_of(hand.order[0]), self.steps(hand.partner_place))

    def format_hand(self, hand: FinishOrder, seats: int) -> str:
        return " ".join(SEAT_LETTERS[s] for s in hand.order)

    def state(self, outcomes: Sequence[Outcome]) -> tuple[LevelState, int | None]:
        """Replay the table: the level state and the side that won the match (or None)."""
        state = LevelState()
        played: int | None = None  # whose level the next deal is played at
        lowest = self.steps(4)
        need = self.int_option("games") // 2 + 1
        for side, steps in replay_gains(outcomes):
            if played is not None and state.levels[played] == TOP:
                if played == side and steps > lowest:
                    state = state.win_game(side)
                    if state.games[side] >= need:
                        return state, side
                    played = None
                    continue
                state = self._failed_a(state, played)
                if played == side:  # won on A with the partner last: no level to gain
                    continue
            state = state.climb(side, steps, TOP)
            played = side
        return state, None

    def _failed_a(self, state: LevelState, side: int) -> LevelState:
        """One more failed try at A; the third sends the side back to 2 under ``a_fail=3``."""
        fails = list(state.a_failures)
        fails[side] += 1
        levels = list(state.levels)
        if self.option("a_fail") == "3" and fails[side] >= 3:
            fails[side] = 0
            levels[side] = 0
        return replace(state, levels=(levels[0], levels[1]), a_failures=(fails[0], fails[1]))
