"""The standings as every surface shows them: one read model of where each line stands now.

A format's :meth:`~engine.formats.base.Format.standings` orders the lines by its tie-break
chain; that order alone cannot say what is true *during* an event. :func:`board` adds
what the history says about each player, pair or team member at this moment:

* ``status``: still in; waiting for table N (their table has no result yet); through
  round N; out in round N; in a play-off (tied, an extra game to come); champion;
  removed. Nobody is out before losing, nobody through before their table is settled.
* ``place``: shared while undecided. Lines that only the chain's closing card flip
  (翻牌) separates share their place until the event is over: that flip is drawn for the
  final ranking, not before (docs/rules/tiebreaks.md).
* the figure that ranks the line, and ``decided``: the tie-break that actually separated
  it from the next line, only once applied (never a stage, never a flip not yet drawn,
  never on a shared place). The figure itself is named only where it orders lines of one
  stage whose places are settled (two crossover losers split by their match's score).
* while a format's groups play (``Board.by_group``), a table per group, A then B: each
  line's ``place`` is its place in the group, shared while only the group's flip (drawn
  when the groups end) separates it; after the groups, one ranking, and the ones not
  going on are out in the groups (``group-out``). Once over, the final's second is the
  runner-up (``runner-up``).

The text of /standings, its picture, the pinned live standings, /bracket, /me and the
end announcement all render this, so they say the same things. Pure and picklable: the
bot may build it in its drawing process.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum

from engine.formats.base import Format, GroupPlace, ranked
from engine.model import PlayerId, RoundPlan, Standing, TableStatus, TournamentState
from engine.standings import IN_GROUP, STAGE_CODES

OUT_STAGES = frozenset({"out", "playoff"})  # out in round N of a knockout, of the playoffs


class Status(StrEnum):
    """Where a line stands now."""

    IN = "in"  # in an event nobody is knocked out of (or not yet drawn)
    WAITING = "waiting"  # their table of the current round has no result yet
    THROUGH = "through"  # won (or had a bye in) round ``round``; waits for the next draw
    OUT = "out"  # lost in round ``round`` (or forfeited)
    PLAYOFF = "playoff"  # tied: an extra game among the tied decides
    CHAMPION = "champion"
    REMOVED = "removed"  # withdrew or disqualified


@dataclass(frozen=True)
class Entry:
    """One line of the board. ``stage``/``stage_round`` are the words a surface prints for
    how far the line got (catalogue ``stage.<stage>`` with ``round``)."""

    place: int
    player: PlayerId
    status: Status
    stage: str
    stage_round: int
    figure: Decimal | None
    figure_code: str
    decided: tuple[str, ...]  # the tie-break applied against the next line, if any
    points: Decimal
    shared: bool = False  # the place is shared with a neighbour (not yet decided)
    unit: int = 0  # pair or team number, where partners share a line
    table: int = 0  # the table they wait for (WAITING, PLAYOFF)
    round: int = 0  # through / out in this round
    group: int = 0  # 1 for group A, 2 for B… (formats with groups)

    @property
    def still_in(self) -> bool:
        return self.status not in (Status.OUT, Status.REMOVED)


@dataclass(frozen=True)
class Board:
    """Every line in ranking order, whether the event is over, and who is tied in a
    play-off (to be named by the play-off notice: the tied, and only they)."""

    entries: tuple[Entry, ...]
    over: bool
    playoff: tuple[PlayerId, ...] = ()
    by_group: bool = False  # the groups play: entries per group, places in the group

    def of(self, player: PlayerId) -> Entry | None:
        return next((e for e in self.entries if e.player == player), None)


def board(fmt: Format, state: TournamentState, over: bool) -> Board:
    """The read model of ``state`` under ``fmt``: the final ranking once ``over``, else
    the standings so far with each line's status now."""
    _, rows = ranked(fmt, state, over)
    return build(fmt, state, rows, over)


def build(fmt: Format, state: TournamentState, rows: tuple[Standing, ...], over: bool) -> Board:
    """:func:`board` from a ranking already computed (``rows``)."""
    groups = fmt.group_places(state) if fmt.has_group_tables and state.rounds else ()
    if groups and not over and fmt.in_group_stage(state):
        return _by_group(groups, rows, pending_tables(state))
    group_of = {g.player: g.group + 1 for g in groups}
    waiting = {} if over else pending_tables(state)
    tied = () if over else fmt.playoff(state)
    last = last_seen(state)
    if state.rounds and state.rounds[-1].plan.stage == "extra":
        # a play-off's table may seat players out already, only filling it: still out
        filling = {s.player for s in rows if s.stage == "out"} - set(tied)
        waiting = {p: n for p, n in waiting.items() if p not in filling}
    found = [_status(fmt, s, waiting, set(tied), over, last) for s in rows]
    out = [status in (Status.OUT, Status.REMOVED) for status, _, _ in found]
    # Partners and teammates (one ``unit``) stand on one place; a lot ties a unit to the
    # next one only while both are still in or both are out: a player knocked out shares
    # no place with those still waiting for their tables.
    first, start, after = _units(rows)
    # Lines nothing separated (the chain leaves them level, no flip) share it for good.
    tie = [
        (not s.tiebreak or (not over and s.lot))
        and after[i] < len(rows)
        and out[i] == out[after[i]]
        for i, s in enumerate(rows)
    ]
    entries: list[Entry] = []
    for i, s in enumerate(rows):
        status, stage, at = found[i]
        shared = tie[i] or (start[i] > 0 and tie[start[i] - 1])
        place = entries[-1].place if i and (not first[i] or tie[i - 1]) else s.rank
        if over and stage == "final" and place == 2:  # the final is settled: 亚军
            stage = "runner-up"
        # a knockout table not reported yet has no score to show: a 0 would read as one
        unscored = stage == "waiting" and fmt.eliminates
        entries.append(
            Entry(
                place=place,
                player=s.player,
                status=status,
                stage=stage,
                stage_round=at,
                figure=None if unscored else s.figure,
                figure_code="" if unscored else s.figure_code,
                decided=() if shared else _decided(s, over),
                points=s.points,
                shared=shared,
                unit=s.unit,
                table=waiting.get(s.player, 0),
                round=_round_of(s, status, stage, at, last),
                group=group_of.get(s.player, 0),
            )
        )
    return Board(_figures_said(entries, rows, over), over, tied)


# A group place's words, and the words once the groups are over without them: 小组赛's
# groups, and the 预选赛's of a multistage event before them (docs/rules/multistage.md).
GROUP_OUT = {"group": "group-out", "preliminary": "preliminary-out"}


def _units(rows: tuple[Standing, ...]) -> tuple[list[bool], list[int], list[int]]:
    """Per line: whether it is the first of its unit's lines (a line alone is a unit of
    one), where its unit's lines start, and where the next unit's lines start."""
    n = len(rows)
    first = [i == 0 or not (s.unit and s.unit == rows[i - 1].unit) for i, s in enumerate(rows)]
    start = [0] * n
    for i in range(n):
        start[i] = i if first[i] else start[i - 1]
    after = [n] * n
    for i in reversed(range(n - 1)):
        after[i] = i + 1 if first[i + 1] else after[i + 1]
    return first, start, after


def _round_of(s: Standing, status: Status, stage: str, at: int, last: dict[PlayerId, int]) -> int:
    """The round a line went through or out in (out in the groups: their last group round)."""
    if stage in GROUP_OUT.values():
        return last.get(s.player, 0)
    return at if status in (Status.THROUGH, Status.OUT) else 0


def _figures_said(
    entries: list[Entry], rows: tuple[Standing, ...], over: bool
) -> tuple[Entry, ...]:
    """Where the figure shown split two lines out in the same round (so from different
    tables) whose order is settled (the event is over, or both are out), it is the
    tie-break applied, and the line says so: two crossover losers 3rd and 4th by their
    match's score. At one table (a final, the last three's round robin) the figures
    side by side say it already. Every line of a unit (partners) is set against the next
    unit's first line, so partners say the same."""
    out = list(entries)
    below: Entry | None = None  # the first line of the unit after the current one's
    for i in reversed(range(len(entries) - 1)):
        e, after = entries[i], entries[i + 1]
        if not (e.unit and after.unit == e.unit):
            below = after
        if below is None:
            continue
        same = e.stage in OUT_STAGES and (e.stage, e.stage_round) == (
            below.stage,
            below.stage_round,
        )
        settled = over or (e.status is Status.OUT and below.status is Status.OUT)
        if same and settled and not e.shared and rows[i].tiebreak == (e.figure_code,):
            out[i] = replace(e, decided=(e.figure_code, *e.decided))
    return tuple(out)


def _by_group(
    groups: tuple[GroupPlace, ...], rows: tuple[Standing, ...], waiting: dict[PlayerId, int]
) -> Board:
    """The board while the groups play: a table per group, A then B, each line's place
    in its group (shared while only the group's flip, not drawn yet, separates it)."""
    row = {s.player: s for s in rows}
    said = STAGE_CODES - {"flip"}
    entries = []
    for g in groups:
        s = row[g.player]
        table = waiting.get(g.player, 0)
        if s.stage == "removed":
            status, stage, at = Status.REMOVED, "removed", 0
        elif table:
            status, stage, at = Status.WAITING, "waiting", table
        else:
            status, stage, at = Status.IN, "group-tied" if g.shared else "group", g.place
        decided = () if g.shared else tuple(c for c in g.tiebreak if c not in said)
        entries.append(
            Entry(
                place=g.place,
                player=g.player,
                status=status,
                stage=stage,
                stage_round=at,
                figure=s.figure,
                figure_code=s.figure_code,
                decided=tuple(c for c in decided if c != s.figure_code),
                points=s.points,
                shared=g.shared,
                unit=s.unit,
                table=table,
                group=g.group + 1,
            )
        )
    return Board(tuple(entries), False, (), by_group=True)


def notice(fmt: Format, state: TournamentState, plan: RoundPlan) -> tuple[PlayerId, ...]:
    """Whom the play-off notice names before an ``extra`` round: the tied (the whole
    final table may sit it, but only the tied contend), else everyone it seats."""
    return fmt.playoff(state) or tuple(p for t in plan.tables for p in t.players)


def pending_tables(state: TournamentState) -> dict[PlayerId, int]:
    """Player → table number, for the current round's tables without a result."""
    if not state.rounds:
        return {}
    last = state.rounds[-1]
    settled = {r.table.number for r in last.results if r.status is not TableStatus.PENDING}
    return {
        p: t.number
        for t in last.plan.tables
        if t.number not in settled
        for p in t.players
        if p not in state.removed
    }


def last_seen(state: TournamentState) -> dict[PlayerId, int]:
    """The last round each player sat at a table or had a bye in."""
    out: dict[PlayerId, int] = {}
    for rec in state.rounds:
        for t in rec.plan.tables:
            out.update(dict.fromkeys(t.players, rec.number))
        out.update(dict.fromkeys(rec.plan.byes, rec.number))
    return out


def _status(
    fmt: Format,
    s: Standing,
    waiting: dict[PlayerId, int],
    tied: set[PlayerId],
    over: bool,
    last: dict[PlayerId, int],
) -> tuple[Status, str, int]:
    """The status of one line and the stage words that say it."""
    if s.stage == "removed":
        return Status.REMOVED, "removed", 0
    if s.stage == "forfeit":
        return Status.OUT, "forfeit", s.stage_round
    if s.stage == "champion":
        return Status.CHAMPION, "champion", 0
    # the last three's round robin, first on points…: the line keeps the format's words
    crowned = s.alive if fmt.eliminates else s.rank == 1 and not fmt.has_team_table
    if over and crowned:
        return Status.CHAMPION, s.stage, s.stage_round
    if s.player in tied:
        return Status.PLAYOFF, "tied", 0
    # lost, but the tables to come may call them back; or played, and the stage's cut
    # over every table (积分晋级 ``per=overall``) waits for the others
    if s.stage in ("may-go-on", "stage-open"):
        return Status.WAITING, s.stage, s.stage_round
    if s.player in waiting:
        # the final, the last three's round robin or a group place say more than a table
        keep = s.stage in ("final", "robin", *GROUP_OUT)
        return (
            Status.WAITING,
            s.stage if keep else "waiting",
            (s.stage_round if keep else waiting[s.player]),
        )
    if not fmt.eliminates or not s.stage:
        return Status.IN, s.stage, s.stage_round
    if s.stage == IN_GROUP:
        return Status.IN, "playing", s.stage_round
    if s.stage in GROUP_OUT:  # the groups are over and they do not go on
        return (
            (Status.IN, s.stage, s.stage_round)
            if s.alive
            else (Status.OUT, GROUP_OUT[s.stage], s.stage_round)
        )
    if not s.alive or s.stage in ("out", "playoff"):
        return Status.OUT, s.stage, s.stage_round
    if s.stage in ("playing", "through"):
        return Status.THROUGH, "through", s.stage_round or last.get(s.player, 0)
    return Status.THROUGH, s.stage, s.stage_round


def _decided(s: Standing, over: bool) -> tuple[str, ...]:
    """The tie-break worth saying: not a stage (the line says it), not the figure shown,
    and not the closing flip before it is drawn (at the end of the event)."""
    if s.lot and not over:
        return ()
    said = {s.figure_code, *(STAGE_CODES - {"flip"})}
    return tuple(c for c in s.tiebreak if c not in said)
