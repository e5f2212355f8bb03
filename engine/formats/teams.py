"""Team event 团体赛: the rules are docs/rules/teams.md (teams by lot, Swiss rounds with
teammates at different tables, an individual ranking and a team table)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from math import ceil

from engine.draw import flip_order, shuffled, stream
from engine.errors import FormatError
from engine.formats.base import FORFEITS_KNOB, members_by_label
from engine.formats.swiss import Swiss
from engine.games.base import Knob
from engine.model import Finished, PlayerId, TournamentState
from engine.standings import Line, rank


@dataclass(frozen=True)
class TeamStanding:
    """One line of the team table: its place, number, members and the deciding criterion."""

    rank: int
    team: int
    members: tuple[PlayerId, ...]
    points: Decimal
    best: Decimal  # the best member's points, the first tie-break
    tiebreak: tuple[str, ...] = ()
    lot: bool = False  # only the closing flip separates it from the next team
    shared: bool = False  # the place is shared with a neighbour (not decided yet)


def while_running(table: Sequence[TeamStanding], over: bool) -> tuple[TeamStanding, ...]:
    """The team table as it reads now: the closing flip is drawn for the final ranking, so
    until then the teams only it separates share a place (docs/rules/teams.md#team-ties)."""
    out: list[TeamStanding] = []
    for i, s in enumerate(table):
        above = not over and i > 0 and table[i - 1].lot
        if above or (not over and s.lot):
            s = replace(s, rank=out[-1].rank if above else s.rank, tiebreak=(), shared=True)
        out.append(s)
    return tuple(out)


class Teams(Swiss):
    """团体赛: teams of three by lot, team score = sum of members, teammates apart."""

    key = "teams"
    aliases = ("teams", "团体赛", "团体", "团队赛", "team")
    signs_up_together = True
    seats_departments_apart = False  # the teams themselves are kept apart
    late_entry = None  # the teams are dealt by lot at the draw: a late entrant would re-deal
    has_team_table = True
    knobs = (
        Knob("rounds", "3", (), int, minimum=1),
        Knob("by", "mix", ("score", "mix"), str),
        Knob("size", "3", (), int, minimum=2),
        FORFEITS_KNOB,
    )
    team_tiebreaks = ("points", "best-individual", "flip")

    def team_size(self) -> int:
        return self.int_option("size")

    def groups(self, state: TournamentState) -> dict[PlayerId, int]:
        """Team number (1-based) of every player: teams signed up together first, then the
        rest by lot to the smallest team (docs/rules/teams.md#teams-by-lot)."""
        size = self.int_option("size")
        given = members_by_label(state)
        for label, who in given.items():
            if len(who) > size:
                raise FormatError("team-size", team=label, size=len(who), limit=size)
        free = sorted(p for p in state.players if p not in state.teams)
        count = max(1, len(given), ceil(len(state.players) / size))
        teams = [*given.values(), *([] for _ in range(count - len(given)))]
        for p in shuffled(free, stream(state.seed, "teams")):
            smallest = min(range(count), key=lambda i: (len(teams[i]), i))
            teams[smallest].append(p)
        return {p: i + 1 for i, who in enumerate(teams) for p in who}

    def champion(self, state: TournamentState, done: Finished) -> tuple[PlayerId, ...]:
        """All members of the top team (团体赛以队计分; docs/rules/teams.md#team-score)."""
        table = self.team_standings(state)
        return table[0].members if table else ()

    def team_standings(self, state: TournamentState) -> tuple[TeamStanding, ...]:
        """Teams ranked by summed points, a short team scaled to full size (#team-score in
        docs/rules/teams.md: the draw made it short), then best individual, then a flip."""
        points = self.points(self.disciplined(state))  # match points in a two-player event
        size = self.int_option("size")
        members = members_by_label(state, self.groups(state))
        flip = flip_order(sorted(members), state.seed, "teams-flip")
        lines, facts = [], {}
        for team, who in members.items():
            raw = sum((points.get(p, Decimal(0)) for p in who), Decimal(0))
            total = raw if len(who) >= size else raw * size / len(who)
            best = max(points.get(p, Decimal(0)) for p in who)
            facts[team] = (tuple(who), total, best)
            keys = (("points", total), ("best-individual", best), ("flip", Decimal(flip[team])))
            lines.append(Line(team, total, True, keys))
        return tuple(
            TeamStanding(s.rank, s.player, *facts[s.player], s.tiebreak, s.lot) for s in rank(lines)
        )
