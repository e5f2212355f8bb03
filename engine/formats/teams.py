"""Team event 团体赛 (docs/rules/teams.md): teams by lot, everyone re-seated each round as
in ``swiss`` with teammates at different tables, an individual ranking as Swiss's and a
team table. A team the lot left one member short is scaled to full size (its mean ×
``size``): the draw, not the players, made it short, and a plain sum would rank it last
for that alone. The team table's closing flip is drawn for the final ranking, so while
the event runs the teams it alone separates share their place (:func:`while_running`)."""

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
    """The team table as it reads now: while the event runs, teams only the closing flip
    separates share a place and name no tie-break (docs/rules/teams.md#team-ties): the flip
    is drawn for the final ranking, not before."""
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
        """Team number of every signed-up player (1-based): teams signed up together
        (``state.teams``) first; everyone else dealt by lot (#teams-by-lot), each to the
        team with the fewest members so far (the lowest number on a tie)."""
        size = self.int_option("size")
        given = members_by_label(state)
        for label, who in given.items():
            if len(who) > size:
                raise FormatError("team-size", team=label, size=len(who), limit=size)
        free = shuffled(
            sorted(p for p in state.players if p not in state.teams), stream(state.seed, "teams")
        )
        count = max(1, len(given), ceil(len(state.players) / size))
        teams = [*given.values(), *([] for _ in range(count - len(given)))]
        for p in free:
            smallest = min(range(count), key=lambda i: (len(teams[i]), i))
            teams[smallest].append(p)
        return {p: i + 1 for i, who in enumerate(teams) for p in who}

    def champion(self, state: TournamentState, done: Finished) -> tuple[PlayerId, ...]:
        """The team on top of the team table (团体赛以队计分; docs/rules/teams.md#team-score), all
        its members."""
        table = self.team_standings(state)
        return table[0].members if table else ()

    def team_standings(self, state: TournamentState) -> tuple[TeamStanding, ...]:
        """Teams ranked by summed points, then best individual, then a flip."""
        teams = self.groups(state)
        points = self.points(self.disciplined(state))  # match points in a two-player event
        size = self.int_option("size")
        members = members_by_label(state, teams)
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
