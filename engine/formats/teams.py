"""Team event 团体赛 (seed 000, 斗地主比赛竞赛规则 §二 and §五; 工会斗地主比赛方案 §四.3).

Rules as implemented, with their sources:

* Teams are formed by lot (§二 组队方式: 抽签产生各队，每队由三人组成，抽到相同数字的三名
  选手为一队): the sign-up list, sorted by id, is shuffled with the stream ``teams`` and
  lot numbers 1, 2, … T are dealt round the shuffled list, T = ⌈players / size⌉, so team
  sizes differ by at most one. Teams given by the bot (``state.teams``, signed up
  together) are used as they are.
* Every round everyone still in is re-seated like a ``swiss`` round (by lot, ``by=mix``,
  or by score), teammates never sharing a table when any seating avoids it (issue 4), and
  earlier opponents avoided. ``rounds`` defaults to 3 (工会方案 §四.3: 团体赛进行3轮).
* Individual ranking: as Swiss (points, Buchholz, tables won, flip): 个人、团体名次一次决出 (§六.3).
* Team score = the sum of its members' points (§五: 每单位3人得分相加为该队团体成绩). A team
  the lot left one member short is scaled to full size (its mean × ``size``): the draw,
  not the players, made it short, and a plain sum would rank it last for that alone.
* Team ties go to the best individual (§五: 以本队最好个人成绩决定团体名次), then a flip.
* Discipline as in every multi-round format: ``forfeits`` forfeited games remove a player
  and strike their scores (seed 002 §四.1), which also leaves their team's sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from math import ceil

from engine.draw import flip_order, shuffled, stream
from engine.formats.base import FORFEITS_KNOB
from engine.formats.swiss import Swiss
from engine.games.base import Knob
from engine.model import PlayerId, TournamentState
from engine.standings import Line, rank, totals


@dataclass(frozen=True)
class TeamStanding:
    """One line of the team table: its place, number, members and the deciding criterion."""

    rank: int
    team: int
    members: tuple[PlayerId, ...]
    points: Decimal
    best: Decimal  # the best member's points, the first tie-break
    tiebreak: tuple[str, ...] = ()


class Teams(Swiss):
    """团体赛: teams of three by lot, team score = sum of members, teammates apart."""

    key = "teams"
    aliases = ("teams", "团体赛", "团体", "团队赛", "team")
    seeds = ("000",)
    knobs = (
        Knob("rounds", "3", (), int, "000", minimum=1),
        Knob("by", "mix", ("score", "mix"), str, ""),
        Knob("size", "3", (), int, "000", minimum=2),
        FORFEITS_KNOB,
    )
    team_tiebreaks = ("points", "best-individual", "flip")

    def groups(self, state: TournamentState) -> dict[PlayerId, int]:
        """Team number of every signed-up player (1-based), by lot unless given."""
        if state.teams:
            return dict(state.teams)
        order = shuffled(sorted(state.players), stream(state.seed, "teams"))
        count = max(1, ceil(len(order) / self.int_option("size")))
        return {p: i % count + 1 for i, p in enumerate(order)}

    def team_standings(self, state: TournamentState) -> tuple[TeamStanding, ...]:
        """Teams ranked by summed points, then best individual, then a flip."""
        teams = self.groups(state)
        points = totals(self.disciplined(state))
        size = self.int_option("size")
        members: dict[int, list[PlayerId]] = {}
        for p in state.players:
            if p in teams:
                members.setdefault(teams[p], []).append(p)
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
            TeamStanding(s.rank, s.player, *facts[s.player], s.tiebreak) for s in rank(lines)
        )
