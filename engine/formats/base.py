"""What every format shares: a stateless :class:`Format` re-derives everything from the
:class:`TournamentState`, so a ``/fix`` re-plays consistently and a seed gives one plan."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engine.draw import shuffled
from engine.errors import ConfigError, FormatError
from engine.games.base import Game, Knob
from engine.model import (
    Finished,
    PlayerId,
    RoundPlan,
    RoundRecord,
    Standing,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from engine.seating import Apart, apart_clashes, cut, keep_apart, partition, pick_byes

if TYPE_CHECKING:
    from engine.formats.elimination import BracketRound
    from engine.formats.stage import Stage
    from engine.formats.teams import TeamStanding

AnyGame = Game[Any]
W = TypeVar("W")  # what a format's replay of the history makes

# The stages a champion's line can end at; ``finish`` names them "champion" instead.
CROWNED_AT = frozenset({"final", "playing", "through"})
# 弃权 2 局者取消全部比赛成绩 (docs/rules/penalties.md#forfeits); ``0`` turns the rule off.
FORFEITS_KNOB = Knob("forfeits", "2", (), int)
# A plan's note when /apart pairs had to share a table.
APART_NOTE = "apart-impossible"


@dataclass(frozen=True)
class GroupPlace:
    """A player's line in their group's table (docs/rules/groups.md#group-ranking); ``shared``
    while only a flip not drawn yet separates it from a neighbour."""

    player: PlayerId
    group: int  # 0 is A
    place: int
    shared: bool = False
    tiebreak: tuple[str, ...] = ()  # what separated it from the next line, once applied


class LastReplay(Generic[W]):
    """A format's replay of the last state it was asked about: plan, standings and play-off
    of one moment read the same history, and a state never changes, so one replay serves."""

    def __init__(self, replay: Callable[[TournamentState], W]) -> None:
        self._replay = replay
        self._last: tuple[TournamentState, W] | None = None

    def __call__(self, state: TournamentState) -> W:
        if self._last is None or self._last[0] is not state:
            self._last = (state, self._replay(state))
        return self._last[1]


class Format:
    """Base format. Subclasses set the class attributes and ``plan``/``standings``."""

    key: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    knobs: ClassVar[tuple[Knob, ...]] = ()
    # The standings' chain (docs/rules/tiebreaks.md); a Swiss of two-player matches sets its own.
    tiebreaks: tuple[str, ...] = ("points", "flip")
    # Capabilities, so the bot asks instead of knowing format keys.
    signs_up_together: ClassVar[bool] = False  # players may name partners (/join @a)
    seats_departments_apart: ClassVar[bool] = False  # /dept: colleagues at other tables
    has_bracket: bool = False  # ``bracket()`` draws a knockout tree (/bracket); per instance
    has_team_table: ClassVar[bool] = False  # ``team_standings()`` ranks the teams
    team_tiebreaks: ClassVar[tuple[str, ...]] = ()  # the team table's chain, where it has one
    has_group_tables: bool = False  # ``draw_groups()``: a table per group first; per instance
    sits_in_pairs: ClassVar[bool] = False  # partners share a line of the standings
    note_codes: ClassVar[tuple[str, ...]] = ("bye",)  # what a plan's ``notes`` may hold
    # Players go out as it runs: at the end only the champion is in, others show their stage.
    eliminates: ClassVar[bool] = False
    # docs/rules/people.md: the ``late`` default ("off", the last round one may enter, None:
    # no late entrants), and whether draws keep /apart pairs at different tables.
    late_entry: ClassVar[str | None] = None
    keeps_apart: ClassVar[bool] = False

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        given = dict(options or {})
        if unknown := sorted(set(given) - {k.name for k in self.knobs}):
            raise ConfigError("unknown-knob", knob=unknown[0], known=self.knob_names())
        self.game = game
        self.options: dict[str, object] = {
            k.name: k.coerce(given.get(k.name, k.default)) for k in self.knobs
        }

    @classmethod
    def knob_names(cls) -> tuple[str, ...]:
        return tuple(k.name for k in cls.knobs)

    def int_option(self, name: str) -> int:
        value = self.options[name]
        assert isinstance(value, int)
        return value

    def str_option(self, name: str) -> str:
        return str(self.options[name])

    @property
    def sizes(self) -> tuple[int, ...]:
        """Table sizes the game allows, the usual one first."""
        return self.game.seat_counts

    def team_size(self) -> int:
        """Members of one team or pair; 1 where everyone plays for themselves."""
        return 1

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """What /rules lists: the declared stages, each played or skipped for ``players``;
        empty where the rules are one text."""
        return ()

    def groups(self, state: TournamentState) -> dict[PlayerId, int]:
        """Player → team, pair or department number; empty where players are alone."""
        return {}

    def bracket(self, state: TournamentState) -> tuple[BracketRound, ...]:
        """The knockout tree so far, where ``has_bracket``."""
        return ()

    def draw_groups(self, state: TournamentState) -> list[list[PlayerId]]:
        """The groups by lot, where ``has_group_tables``."""
        return []

    def group_places(self, state: TournamentState) -> tuple[GroupPlace, ...]:
        """Every group's lines in group order, where ``has_group_tables``."""
        return ()

    def in_group_stage(self, state: TournamentState) -> bool:
        """Whether the groups are drawn and still play: the standings are a table per group."""
        return False

    def team_standings(self, state: TournamentState) -> tuple[TeamStanding, ...]:
        """The teams ranked, where ``has_team_table``."""
        return ()

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse (``ConfigError``, by /set and /draw) a knob no stage reads, or whose value
        cannot work for ``players`` (``drawing``: the field is final). Most read them all."""

    def drawn_cards(self, plan: RoundPlan) -> dict[PlayerId, str]:
        """The card each unit drew for its opponents (docs/rules/pairs.md#opponents-by-cards)."""
        return {}

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """Players tied after their table was settled, whom an extra game (加赛) is to separate:
        the tied only, not everyone the extra table seats. Empty where a flip decides."""
        return ()

    def sides(self, seats: Sequence[PlayerId]) -> list[list[PlayerId]]:
        """The partners at a table of four in a two-against-two game (掼蛋, 升级): they
        always score alike, so no extra hand can part them."""
        return [[seats[i] for i in side] for side in self.game.partners] if len(seats) == 4 else []

    def called_back(self, state: TournamentState) -> frozenset[PlayerId]:
        """The best losers the next round takes back (docs/rules/knockout.md#lucky-loser), once
        the round that put them out is closed."""
        return frozenset()

    # --- the contract ----------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        raise NotImplementedError

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        raise NotImplementedError

    @property
    def rules_variant(self) -> str:
        """Which wording of the rules applies to this game ("" the usual one)."""
        return ""

    def finish(self, ranking: tuple[Standing, ...]) -> Finished:
        """The final ranking: where players go out, the unit still in first is "champion"
        instead of its last stage; with everyone out (forfeits) nobody is crowned."""
        if not self.eliminates or not ranking or not ranking[0].alive:
            return Finished(ranking)  # nobody left in: no champion (see ``unsettled``)
        top = ranking[0]
        unit = {s.player for s in ranking if top.unit and s.unit == top.unit} | {top.player}
        return Finished(
            tuple(
                replace(
                    s,
                    alive=s.player in unit,
                    stage="champion" if s.player in unit and s.stage in CROWNED_AT else s.stage,
                )
                for s in ranking
            )
        )

    @staticmethod
    def unsettled(state: TournamentState) -> tuple[int, ...]:
        """Tables of the last round everyone at them forfeited: no real result, so the
        organiser decides (``/fix``, or rules the forfeit) before it ends the event."""
        return tuple(
            res.table.number
            for last in state.rounds[-1:]
            for res in last.results
            if res.status is TableStatus.FORFEIT and set(res.table.players) <= res.forfeited
        )

    def current(self, state: TournamentState) -> tuple[Standing, ...]:
        """The ranking as of now: the final one once the format has finished."""
        try:
            outcome = self.plan(state)
        except FormatError:
            return self.standings(state)
        return outcome.ranking if isinstance(outcome, Finished) else self.standings(state)

    def champion(self, state: TournamentState, done: Finished) -> tuple[PlayerId, ...]:
        """Who won: the first of the ranking; formats of teams or pairs name the unit."""
        return (done.ranking[0].player,) if done.ranking else ()

    # --- shared checks ---------------------------------------------------------------
    def require_players(self, state: TournamentState, need: int) -> None:
        """The first draw needs ``need`` active players; later rounds go on with fewer."""
        players = len(self.active(state))
        if not state.rounds and players < need:
            raise FormatError("too-few-players", players=players, need=need)

    @staticmethod
    def require_closed(state: TournamentState) -> None:
        """Planning needs every table of every round confirmed or forfeited."""
        closed = (TableStatus.CONFIRMED, TableStatus.FORFEIT)
        for rec in state.rounds:
            done = {res.table.number for res in rec.results if res.status in closed}
            if missing := [t.number for t in rec.plan.tables if t.number not in done]:
                raise FormatError("round-open", round=rec.number, table=missing[0])

    @staticmethod
    def active(state: TournamentState) -> list[PlayerId]:
        """Signed-up players not removed, in sign-up order."""
        return [p for p in state.players if p not in state.removed]

    def disciplined(self, state: TournamentState) -> TournamentState:
        """The state under docs/rules/penalties.md#forfeits: who forfeited ``forfeits`` games
        is removed and their scores struck, so totals, Buchholz and team sums forget them."""
        limit = self.options.get("forfeits", 0)
        if not isinstance(limit, int) or limit <= 0:
            return state
        counts = Counter(p for rec in state.rounds for res in rec.results for p in res.forfeited)
        struck = frozenset(p for p, c in counts.items() if c >= limit)
        if not struck:
            return state
        rounds = tuple(
            RoundRecord(rec.number, rec.plan, tuple(strike(res, struck) for res in rec.results))
            for rec in state.rounds
        )
        return replace(state, rounds=rounds, removed=state.removed | struck)

    def lot_round(
        self,
        pool: list[PlayerId],
        earlier_byes: Mapping[PlayerId, int],
        rng: random.Random,
        stage: str,
        label: str,
        notes: tuple[str, ...],
        short_tables: bool = True,
        apart: Apart = (),
        sit_out: int = 0,
    ) -> RoundPlan:
        """Tables by lot (docs/rules/knockout.md#tables-by-lot): one final table when all fit;
        else the left over and ``sit_out`` more (#one-loss) on a bye to the fewest byes."""
        if len(pool) in self.sizes and len(pool) <= self.sizes[0]:
            if apart_clashes([pool], apart):  # one table: nobody can be kept apart
                notes = (*notes, APART_NOTE)
            return RoundPlan((Table(1, tuple(shuffled(pool, rng))),), (), "final", label, notes)
        sizes, bye_count = partition(len(pool) - sit_out, self.sizes, short_tables)
        byes = pick_byes(pool, bye_count + sit_out, earlier_byes, rng)
        drawn = shuffled([p for p in pool if p not in byes], rng)
        if byes:
            notes = (*notes, "bye")
        tables = cut(drawn, sizes)
        if apart:
            seated, kept = keep_apart([t.players for t in tables], apart, [])
            tables = tuple(Table(t.number, s) for t, s in zip(tables, seated, strict=True))
            notes = notes if kept else (*notes, APART_NOTE)
        return RoundPlan(tables, tuple(byes), stage, label, notes)

    @staticmethod
    def label(state: TournamentState) -> str:
        """The stream label of the next round's draw (``round<n>``)."""
        return f"round{len(state.rounds) + 1}"


def ranked(
    fmt: Format, state: TournamentState, over: bool
) -> tuple[tuple[Standing, ...], tuple[Standing, ...]]:
    """The standings, and the ranking to show (the final one once ``over``): plain data in,
    so the bot can run it off its event loop (a tenth of a second at 2,000 players)."""
    standings = dropped_out(fmt.standings(state), state)
    return standings, dropped_out(fmt.current(state), state) if over else standings


def dropped_out(rows: tuple[Standing, ...], state: TournamentState) -> tuple[Standing, ...]:
    """A line removed because the player dropped out (not disqualified) says so, with the
    round they dropped after (docs/rules/people.md): 第N轮后退出, not 退赛."""
    if not state.dropped:
        return rows
    return tuple(
        replace(s, stage="dropped", stage_round=state.dropped[s.player])
        if s.stage == "removed" and s.player in state.dropped
        else s
        for s in rows
    )


def members_by_label(
    state: TournamentState, labels: Mapping[PlayerId, int] | None = None
) -> dict[int, list[PlayerId]]:
    """Label → members in sign-up order, of ``state.teams`` or of a format's own ``labels``."""
    labels = state.teams if labels is None else labels
    members: dict[int, list[PlayerId]] = {}
    for p in state.players:
        if p in labels:
            members.setdefault(labels[p], []).append(p)
    return dict(sorted(members.items()))


def strike(result: TableResult, struck: frozenset[PlayerId]) -> TableResult:
    """A confirmed result with the struck players' scores cancelled (set to 0)."""
    players = result.table.players
    if result.status is not TableStatus.CONFIRMED or not result.scores or not struck & set(players):
        return result
    scores = tuple(
        Decimal(0) if p in struck else s for p, s in zip(players, result.scores, strict=True)
    )
    return replace(result, scores=scores)
