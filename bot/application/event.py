"""One event as one update works on it: the aggregate every use-case on the result path
goes through (docs/development.md#one-update).

An :class:`Event` holds the tournament row loaded once, its format and game, and the
engine's state, built once and kept: a verb that changes what the engine reads (a
result, a forfeit, a penalty…) records an audit entry, which moves the tournament to its
next version, and the state is rebuilt once, when next asked for. Entries that change
nothing the engine reads (the round closed, the event over) keep it.

The lifecycle is here as verbs: draw, open a round, report, confirm, dispute, fix,
forfeit, penalise, warn, disqualify, rule a deadline or a check-in cut-off, undo, settle
a round (and with it finish the event) and cancel. Each does its change through the
services (``bot.application.service``), writes its typed audit entry, and returns what
happened as domain events (the dataclasses below) for the handler to render: no verb
speaks to the chat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from bot.application import ratings
from bot.application.context import Ctx
from bot.application.live_links import live_token, new_live_token
from bot.application.service import audit, people, results
from bot.application.slip_links import ensure_slip_secret
from bot.application.tournament import (
    active_count,
    by_person,
    format_of,
    game_of,
    given_teams,
    latest_round,
    places_of,
    playing_for,
    state_of,
)
from bot.language.errors import UserError
from db.models import Player, Report, Round, TableRow, Tournament
from db.status import EventStatus, PenaltyKind, PlayerStatus, RoundStatus, TableState
from engine.board import Board, board, build, notice
from engine.formats import preset
from engine.formats.base import Format
from engine.formats.teams import TeamStanding, while_running
from engine.games import Game
from engine.games.penalties import Rung, ladder
from engine.model import Finished, RoundPlan, TournamentState


# --- what happened ---------------------------------------------------------------------------
@dataclass(frozen=True)
class StandingsMoved:
    """A result changed the standings of ``round``: the live standings show it. ``soon``:
    a result in a burst, whose refresh may wait for the others
    (``bot.presentation.live.later``)."""

    round: Round
    soon: bool = False


@dataclass(frozen=True)
class HeldForRuling:
    """The round would end the event with whole ``tables`` forfeited: it stays open
    until the organiser rules (docs/rules/deadlines.md#late)."""

    round: int
    tables: tuple[int, ...]


@dataclass(frozen=True)
class RoundClosed:
    """Every table settled; ``going_on`` play the next round, and ``out`` of this
    round's players do not (none in a Swiss or a round robin); ``called_back`` of those
    going on lost and go on as best losers."""

    round: int
    going_on: tuple[int, ...]
    out: tuple[int, ...]
    called_back: frozenset[int] = frozenset()


@dataclass(frozen=True)
class PlayOffNeeded:
    """The round closed level: ``tied`` play it on (a level series, a tie at the top)."""

    round: int
    tied: tuple[int, ...]


@dataclass(frozen=True)
class EventFinished:
    """The format has finished: the final ranking and who is crowned."""

    final: Board
    champion: tuple[int, ...]


Settled = StandingsMoved | HeldForRuling | RoundClosed | PlayOffNeeded | EventFinished


@dataclass(frozen=True)
class ResultReported:
    """A report stored on ``table``; ``counts``: an organiser's, settled at once."""

    table: TableRow
    report: Report
    scores: tuple[Decimal, ...]
    counts: bool
    then: tuple[Settled, ...] = ()


@dataclass(frozen=True)
class ResultConfirmed:
    table: TableRow
    report: Report
    then: tuple[Settled, ...]


@dataclass(frozen=True)
class ResultDisputed:
    table: TableRow
    reason: str


@dataclass(frozen=True)
class ResultFixed:
    table: TableRow
    report: Report
    scores: tuple[Decimal, ...]
    then: tuple[Settled, ...]


@dataclass(frozen=True)
class TableForfeited:
    table: TableRow
    losers: tuple[int, ...]
    then: tuple[Settled, ...]


@dataclass(frozen=True)
class PenaltyGiven:
    """A deduction (0: a warning); ``offence``: its rung on the warning ladder."""

    player: Player
    points: Decimal
    reason: str
    offence: int = 1
    then: tuple[Settled, ...] = ()


@dataclass(frozen=True)
class PlayerDisqualified:
    """Removed from the event; ``offence``: the warning that did it (0: /dq);
    ``table``: their table still to be played, a walkover now."""

    player: Player
    offence: int = 0
    then: tuple[Settled, ...] = ()
    table: TableRow | None = None


@dataclass(frozen=True)
class NoShowsRuled:
    """The check-in cut-off: each ruled table and its absent players."""

    round: int
    absent: tuple[tuple[TableRow, tuple[int, ...]], ...]
    then: tuple[Settled, ...]


@dataclass(frozen=True)
class DeadlineRuled:
    """A deadline passed: the tables whose report stood, forfeited, still waiting."""

    round: Round
    accepted: tuple[TableRow, ...]
    forfeited: tuple[TableRow, ...]
    waiting: tuple[TableRow, ...]
    then: tuple[Settled, ...]


@dataclass(frozen=True)
class RulingUndone:
    action: str
    then: tuple[Settled, ...]


@dataclass(frozen=True)
class RoundDrawn:
    round: Round


@dataclass(frozen=True)
class RoundOpened:
    """A round opened; the tables a dropped-out player was drawn at went over to their
    opponents (the caller settles the round once it has announced it: a final may be
    over at once)."""

    round: Round
    walked: tuple[tuple[TableRow, tuple[int, ...]], ...]


@dataclass(frozen=True)
class EventCancelled:
    title: str


@dataclass(frozen=True)
class SignedUp:
    """``player`` is signed up: ``joined`` now (False: they were already), ``waiting``
    beyond the cap, ``count`` signed up now (0: not counted)."""

    player: Player
    joined: bool
    waiting: bool
    count: int = 0


@dataclass(frozen=True)
class Partnered:
    """``player`` named their partners: the signed-up by id, the others by the words
    that named them; ``formed``: every member named the others, the team stands."""

    player: Player
    partners: tuple[int, ...]
    unjoined: tuple[str, ...]
    formed: bool


@dataclass(frozen=True)
class PlayerLeft:
    """``player`` left before the draw; ``count`` signed up then; ``promoted``: who
    came in from the waiting list to the place (docs/rules/people.md)."""

    player: Player
    count: int
    promoted: tuple[Player, ...] = ()


@dataclass(frozen=True)
class PlayerCheckedIn:
    """``user`` is present at ``table`` (``already``: they had checked in)."""

    round: Round
    table: TableRow
    user: int
    already: bool


@dataclass(frozen=True)
class FormatChosen:
    """At the draw, the format picked for the field's size: ``format`` (a key or preset)
    for ``players`` entrants signed up (pairs where ``per`` is 2), ``most`` the largest
    field of the small format (docs/rules/two-player.md#format-by-size)."""

    format: str
    players: int
    most: int
    per: int = 1


@dataclass(frozen=True)
class PlayerDropped:
    """Out from the next draw. ``table``: their table still to be played, a walkover
    now; ``reported``: their table whose report stands, to be confirmed as usual;
    ``still_in``: their line is not knocked out (always, where nobody is), so each
    later match of it is a walkover, unless a substitute takes the place
    (docs/rules/people.md#drop)."""

    player: Player
    round: int
    table: TableRow | None
    then: tuple[Settled, ...]
    reported: TableRow | None = None
    still_in: bool = True


# --- the aggregate ---------------------------------------------------------------------------
class Event:
    """The chat's event for one update (see the module docstring). Get it with
    :meth:`load` (the chat's event) or :meth:`of` (a tournament found otherwise, e.g. by
    a timer); both give the same object for the same tournament in one update."""

    def __init__(self, ctx: Ctx, t: Tournament, whole: bool) -> None:
        self.ctx, self.t, self._whole = ctx, t, whole
        self._state: TournamentState | None = None
        self._built: int | None = None  # the tournament version the state was built at

    @classmethod
    async def load(cls, ctx: Ctx, finished: bool = False, whole: bool = True) -> Event:
        """The chat's (or topic's) event (``Ctx.tournament``: ``finished``, ``whole``)."""
        t = await ctx.uow.tournament(finished=finished, whole=whole)
        return cls.of(ctx, t, whole)

    @classmethod
    def of(cls, ctx: Ctx, t: Tournament, whole: bool = True) -> Event:
        known = ctx.uow.events.get(t.id)
        if known is None or known.t is not t:
            known = ctx.uow.events[t.id] = cls(ctx, t, whole)
        known._whole = known._whole or whole
        return known

    @classmethod
    async def create(cls, ctx: Ctx, t: Tournament) -> Event:
        """/new: store the new event ``t`` (no players, no rounds yet) and audit it."""
        await ctx.uow.repo.add(t)
        event = cls.of(ctx, t)
        event._record(audit.Created(t.game, t.format, t.title))
        return event

    async def whole(self) -> None:
        """Load every row of the event (it was loaded alone, ``whole=False``)."""
        if not self._whole:
            await self.ctx.uow.repo.load_whole(self.t)
            self._whole = True

    # --- what the engine sees ----------------------------------------------------------------
    @property
    def fmt(self) -> Format:
        return format_of(self.t)

    @property
    def game(self) -> Game:  # type: ignore[type-arg]
        return game_of(self.t)

    @property
    def state(self) -> TournamentState:
        """The engine's state, built once per version of the event."""
        if self._state is None or self._built != self.t.version:
            self._state, self._built = state_of(self.t), self.t.version
        return self._state

    def board(self) -> Board:
        """The standings' read model now (``engine.board``): final once the event is over."""
        return board(self.fmt, self.state, self.t.status == EventStatus.FINISHED)

    def teams(self) -> tuple[TeamStanding, ...]:
        """The team table of a team event (docs/rules/teams.md#team-score), else empty."""
        fmt = self.fmt
        if not fmt.has_team_table:
            return ()
        return while_running(fmt.team_standings(self.state), self.t.status == EventStatus.FINISHED)

    def groups(self) -> Sequence[Sequence[int]]:
        """The groups of a group stage once drawn (docs/rules/groups.md#groups-by-lot)."""
        fmt = self.fmt
        if not fmt.has_group_tables or not self.t.rounds:
            return ()
        return fmt.draw_groups(self.state)

    def standings(self) -> dict[int, int]:
        """Each player's place by the format's standings (a finished event's final); a
        substitute and the one they replaced share their place's."""
        return by_person(self.t, {s.player: s.rank for s in self.fmt.standings(self.state)})

    def _record(self, entry: audit.Entry, keeps_state: bool = False) -> None:
        """Audit ``entry``; ``keeps_state``: it changes nothing the engine reads, so the
        state built before it is still the event's."""
        fresh = self._state is not None and self._built == self.t.version
        self.ctx.uow.record(self.t, entry)
        if keeps_state and fresh:
            self._built = self.t.version

    # --- people ----------------------------------------------------------------------------
    async def sign_up(self, name: str, partners: Sequence[int | str] = ()) -> SignedUp:
        """The caller's sign-up (made, or back after /leave), on the waiting list beyond
        the cap (a pair or team waits as one). It reads one player row and a count, never
        the list: the cost of a sign-up does not grow with the event."""
        ctx, t = self.ctx, self.t
        ctx.caller.require_person()
        if t.status != EventStatus.SIGNUP:
            raise UserError("refuse.signup-closed")
        actor = ctx.caller.actor
        existing = await ctx.uow.repo.player(t.id, actor)
        if existing is not None and existing.status in (PlayerStatus.ACTIVE, PlayerStatus.WAITING):
            return SignedUp(existing, False, existing.status == PlayerStatus.WAITING)
        if waits := await people.should_wait(ctx, t, partners):
            await self.whole()  # the stored row, to put it on the list
            existing = next((p for p in t.players if p.user_id == actor), None)
        if existing is not None:
            existing.status, existing.name = PlayerStatus.ACTIVE, name
            player = existing
        else:
            username = ctx.caller.inc.sender.username
            player = await ctx.uow.repo.new_player(t, actor, name, username)
        if waits:
            people.put_on_list(ctx, t, player)
            return SignedUp(player, True, True)
        self._record(audit.Joined(actor, name))
        return SignedUp(player, True, False, await ctx.uow.repo.active_players(t.id))

    def partner(
        self, player: Player, partners: Sequence[int], unjoined: Sequence[str] = ()
    ) -> Partnered:
        """``player`` names their partners (docs/rules/teams.md#teams-by-lot)."""
        people.set_partners(self.ctx, self.t, player, [*partners, *unjoined])
        formed = player.user_id in given_teams(self.t)
        return Partnered(player, tuple(partners), tuple(unjoined), formed)

    def leave(self, player: Player) -> PlayerLeft:
        """``player`` leaves before the draw, and their partner requests with them."""
        status, partners = player.status, player.partners
        player.status, player.partners = PlayerStatus.LEFT, []
        self._record(audit.Left(player.user_id, status, partners))
        count = sum(p.status == PlayerStatus.ACTIVE for p in self.t.players)
        return PlayerLeft(player, count, self.promote())

    def promote(self) -> tuple[Player, ...]:
        """A place came free before the draw (the cap raised): the first waiting players
        in, a pair or team as a whole, as long as they fit."""
        return tuple(people.promote(self.ctx, self.t))

    def stand_by(self, player: Player) -> None:
        """A /join after the draw of a pair or team event: on the waiting list, from
        which /sub brings a substitute in."""
        people.put_on_list(self.ctx, self.t, player)

    def check_in(self, r: Round, row: TableRow, user: int) -> PlayerCheckedIn:
        """``user``, seated at ``row``, is present (docs/rules/deadlines.md)."""
        if user in row.present:
            return PlayerCheckedIn(r, row, user, already=True)
        row.present = sorted({*row.present, user})
        self._record(audit.CheckedIn(r.number, row.number, user))
        return PlayerCheckedIn(r, row, user, already=False)

    def drop(self, player: Player) -> PlayerDropped:
        """Out from the next draw (docs/rules/people.md#drop); a table still to be played
        is a walkover at once, which may settle the round."""
        reported = people.reported(self.t, player)
        row = people.drop(self.ctx, self.t, player)
        r = latest_round(self.t)
        assert r is not None  # dropping needs the draw
        then = self._walked(row)
        return PlayerDropped(player, r.number, row, then, reported, self.still_in(player))

    def still_in(self, player: Player) -> bool:
        """Whether the line ``player`` plays is not knocked out (always, in an event
        nobody is knocked out of: there a drop only stops the draws)."""
        if not self.fmt.eliminates:
            return True
        mine = self.board().of(places_of(self.t).get(player.user_id, player.user_id))
        return mine is not None and mine.still_in

    def _walked(self, row: TableRow | None) -> tuple[Settled, ...]:
        """After a ruling on a player: a table of the open round made a walkover may
        settle the round; else the standings moved, once on show."""
        r = latest_round(self.t)
        if row is not None and r is not None and r.status == RoundStatus.OPEN:
            return self.settle(r)
        return self._moved()

    # --- rounds ----------------------------------------------------------------------------
    def choose_format(self) -> FormatChosen | None:
        """At the draw of an event whose format goes by size (``options["auto"]``): fix
        the format for the field signed up (docs/rules/two-player.md). ``None``: the
        organiser named the format."""
        t, sizes = self.t, self.game.formats_by_size
        if t.options.get("auto", {}).get("format") != "size" or sizes is None:
            return None
        players = active_count(t)
        per = self.fmt.team_size()  # the rule counts the default format's entrants
        chosen = self.game.format_for(players // per)
        key, knobs = preset(chosen)
        before_format, before = t.format, t.options
        if key != t.format:  # knobs of the other format do not apply
            t.options = {k: dict(v) for k, v in t.options.items() if k != "format"}
        if knobs:
            t.options = {**t.options, "format": {**t.options.get("format", {}), **knobs}}
        t.format = key
        t.options = {k: dict(v) for k, v in t.options.items() if k != "auto"}
        self._record(audit.FormatBySize(before_format, before, key, players))
        return FormatChosen(chosen, players // per, sizes[0], per)

    def draw(self, seeding: Sequence[int] | None = None) -> RoundDrawn:
        """Close sign-up and seat round 1 (refused when too few can be seated);
        ``seeding``: the order by rating the organiser seeds by, stored with the event
        (its ``draw`` entry covers it)."""
        if seeding is not None:
            self.t.options = {**self.t.options, "draw": {"seeding": list(seeding)}}
            self._state = None  # the engine seeds from the options
        plan = self.fmt.plan(self.state)
        if isinstance(plan, Finished):
            raise UserError("refuse.too-few-players")
        r = self._store_round(plan, 1)
        self.t.status, self.t.signup_until = EventStatus.RUNNING, None
        self._record(audit.Drawn([list(row.seats) for row in r.tables]))
        return RoundDrawn(r)

    def _store_round(self, plan: RoundPlan, number: int) -> Round:
        now = playing_for(self.t)  # a place a substitute took is seated as them
        r = Round(
            number=number,
            stage=plan.stage,
            seed_label=plan.seed_label,
            status=RoundStatus.DRAWN,
            byes=[now.get(u, u) for u in plan.byes],
            notes=list(plan.notes),
        )
        r.tables = [
            TableRow(
                number=tb.number,
                status=TableState.PENDING,
                seats=[now.get(u, u) for u in tb.players],
                forfeited=[],
                present=[],
            )
            for tb in plan.tables
        ]
        self.t.rounds.append(r)
        return r

    def open_round(self, deadline: datetime | None) -> RoundOpened:
        """Open the drawn round, or draw the next one from the last and open it."""
        r = latest_round(self.t)
        assert r is not None  # a running event has its first round drawn
        if r.status == RoundStatus.OPEN:
            raise UserError("refuse.round-still-open", round=r.number)
        if r.status == RoundStatus.CLOSED:
            plan = self.fmt.plan(self.state)
            if isinstance(plan, Finished):  # the settling announced it
                raise UserError("refuse.finished")
            r = self._store_round(plan, r.number + 1)
        r.status, r.deadline = RoundStatus.OPEN, deadline
        r.deadline_set_at = self.ctx.now if deadline is not None else None
        self._record(audit.RoundOpened(r.number, str(deadline)))
        walked = tuple((row, tuple(out)) for row, out in people.walk_over(self.ctx, self.t, r))
        return RoundOpened(r, walked)

    def settle(self, r: Round, ruled: bool = False) -> tuple[Settled, ...]:
        """After a table's result changed: the standings moved; once every table of the
        open round is settled, close it, and finish the event when the format has. A
        round that would end the event while a whole table forfeited (a missed
        deadline, a final nobody played) stays open until the organiser decides
        (``ruled``: an explicit /forfeit)."""
        moved = StandingsMoved(r)
        if r.status != RoundStatus.OPEN or any(
            row.status == TableState.PENDING for row in r.tables
        ):
            return (moved,)
        fmt, state = self.fmt, self.state
        outcome = fmt.plan(state)
        held = fmt.unsettled(state)
        if isinstance(outcome, Finished) and held and not ruled:
            self._record(audit.Held(r.number, list(held)), keeps_state=True)
            return moved, HeldForRuling(r.number, tuple(held))
        r.status = RoundStatus.CLOSED
        self._record(audit.Closed(r.number), keeps_state=True)
        if isinstance(outcome, Finished):
            return moved, self.finish(outcome)
        if outcome.stage == "extra":
            # A level series or a tie at the top of a final is played on: nobody goes on
            # from it, and only the tied are named (a whole final table may replay it).
            return moved, PlayOffNeeded(r.number, notice(fmt, state, outcome))
        going_on = [u for table in outcome.tables for u in table.players] + list(outcome.byes)
        played = [u for table in state.rounds[-1].plan.tables for u in table.players]
        # who left the event (/drop, /dq) did not lose the round: a group round after a
        # withdrawal names nobody as going on, as any other group round
        out = tuple(u for u in played if u not in going_on and u not in state.removed)
        return moved, RoundClosed(r.number, tuple(going_on), out, fmt.called_back(state))

    def finish(self, outcome: Finished) -> EventFinished:
        """The format has finished: the event is over, its ranking final."""
        self.t.status = EventStatus.FINISHED
        self._record(audit.Finished(), keeps_state=True)
        fmt, state = self.fmt, self.state
        final = build(fmt, state, outcome.ranking, over=True)
        self.ctx.uow.defer(lambda: ratings.keep_places(self.ctx.uow.repo, self.t, final))
        return EventFinished(final, fmt.champion(state, outcome))

    async def settle_result(self, r: Round) -> tuple[Settled, ...]:
        """After a confirmed result: the round closes once no table is pending (that
        needs the whole event); else the live standings move, in a burst of results
        once for many (``soon``), so a result costs what its table costs."""
        if r.status == RoundStatus.OPEN and not await self.ctx.uow.repo.unsettled(r.id):
            await self.whole()
            return self.settle(r)
        return (StandingsMoved(r, soon=True),)

    def cancel(self) -> EventCancelled:
        """Call the event off: it keeps its rows, stops being the chat's active event."""
        t = self.t
        until = t.signup_until.isoformat() if t.signup_until is not None else None
        before = audit.Cancelled(t.status, until)
        played = t.status == EventStatus.RUNNING
        t.status, t.signup_until = EventStatus.CANCELLED, None
        self._record(before, keeps_state=True)
        if played:  # its hands leave the ratings (docs/rules/ratings.md#cancelled)
            self._later_restate()
        return EventCancelled(t.title)

    # --- settings and deadlines ---------------------------------------------------------------
    def set_deadline(self, r: Round, when: datetime, row: TableRow | None = None) -> None:
        """/deadline: the open round's deadline, or one ``row``'s own, moved to ``when``
        (reminders count from now)."""
        if row is None:
            before = audit.Moment(r.deadline, r.deadline_set_at)
            self._record(audit.RoundDeadline(r.number, before, when))
            r.deadline, r.deadline_set_at = when, self.ctx.now
            return
        before = audit.Moment(row.deadline, row.deadline_set_at)
        self._record(audit.TableDeadline(r.number, row.id, row.number, before, when))
        row.deadline, row.deadline_set_at = when, self.ctx.now

    def set_signup_deadline(self, when: datetime) -> None:
        """/deadline signup: sign-up closes, and the draw is made, at ``when``."""
        self._record(audit.SignupDeadline(self.t.signup_until, when))
        self.t.signup_until = when

    def keep_signup_open(self, at: datetime) -> None:
        """The sign-up deadline ``at`` passed but no draw could be made: sign-up stays
        open, with no deadline."""
        self.t.signup_until = None
        self._record(audit.SignupClosed(at.isoformat()), keeps_state=True)

    def set_knob(self, options: dict[str, object], knob: str) -> None:
        """/set: ``options`` (validated) in place of the old, ``knob`` the one changed."""
        results.rule_set(self.ctx, self.t, options, knob)

    def set_format(self, key: str) -> None:
        """/set format before the draw: the new format's knobs start from their defaults."""
        t = self.t
        before_format, before = t.format, t.options
        options = {k: dict(v) for k, v in t.options.items() if k not in ("format", "auto")}
        t.format, t.options = key, options
        self._record(audit.FormatSet(before_format, before, key, options))

    def set_department(self, player: Player, department: str | None) -> None:
        """/dept: ``player``'s department (``None``: none), kept apart at the draw."""
        before, player.department = player.department, department
        self._record(audit.DepartmentSet(player.user_id, before, department))

    def substitute(self, out: Player, sub: Player, first: int) -> None:
        """/sub: ``sub`` plays ``out``'s place from round ``first`` (docs/rules/people.md)."""
        people.substitute(self.ctx, self.t, out, sub, first)

    def enter_late(self, player: Player, entering: int) -> None:
        """A late entrant plays from round ``entering`` on (docs/rules/people.md)."""
        people.enter_late(self.ctx, self.t, player, entering)

    def print_round(self, r: Round) -> None:
        """/print: the round's slips carry links signed with the event's slip secret,
        made with the first print."""
        self.note(audit.Printed(r.number, ensure_slip_secret(self.t)))

    def call_referee(self, r: Round, row: TableRow, organisers: int) -> None:
        """A table called the referee now; calls of earlier rounds are forgotten (the
        next call of that table waits, ``bot.application.handlers.referee``).
        ``organisers``: how many were told in private."""
        paper = self.t.options.get("paper", {})
        paper = paper if isinstance(paper, dict) else {}
        calls = paper.get("calls", {}) if isinstance(paper.get("calls"), dict) else {}
        calls = {k: v for k, v in calls.items() if k.startswith(f"{r.number}:")}
        calls[f"{r.number}:{row.number}"] = self.ctx.now.isoformat()
        self.t.options = {**self.t.options, "paper": {**paper, "calls": calls}}
        self.note(audit.RefereeCalled(r.number, row.number, organisers))

    def new_live_page(self) -> str:
        """/live: a new link to the live page (an old one stops working); its token."""
        revoked = live_token(self.t) is not None
        token = new_live_token(self.t)
        self.note(audit.LivePage(revoked))
        return token

    def open_checkin(self, r: Round, minutes: int) -> datetime:
        """As round ``r`` opens (its ``round-open`` entry says so): the check-in is open
        for ``minutes``; the cut-off it returns rules the absent (:meth:`no_shows`)."""
        r.checkin_until = self.ctx.now + timedelta(minutes=minutes)
        return r.checkin_until

    def note(self, entry: audit.Entry) -> None:
        """Audit a change the engine does not read (a reminder sent, a referee called, a
        round printed): the state built before it is still the event's."""
        self._record(entry, keeps_state=True)

    # --- results ---------------------------------------------------------------------------
    async def report(
        self, r: Round, row: TableRow, checked: results.Checked, organiser: bool
    ) -> ResultReported:
        """Store a checked report: confirmed at once from an organiser, else pending."""
        rep = await results.file(self.ctx, self.t, r, row, checked, organiser)
        await self._rate(row)
        then = await self.settle_result(r) if organiser else ()
        return ResultReported(row, rep, checked.scores, organiser, then)

    async def confirm(self, r: Round, row: TableRow, rep: Report) -> ResultConfirmed:
        results.confirm(self.ctx, self.t, r, row, rep)
        await self._rate(row)
        return ResultConfirmed(row, rep, await self.settle_result(r))

    def dispute(self, row: TableRow, rep: Report, reason: str) -> ResultDisputed:
        results.dispute(self.ctx, self.t, row, rep, reason)
        return ResultDisputed(row, reason)

    async def fix(self, r: Round, row: TableRow, checked: results.Checked) -> ResultFixed:
        rep = await results.fix(self.ctx, self.t, r, row, checked)
        await self._restate()
        return ResultFixed(row, rep, checked.scores, self.settle(r))

    def forfeit(self, r: Round, row: TableRow, losers: Sequence[int]) -> TableForfeited:
        """``losers`` forfeit the table's game; the organiser's own ruling may end the
        event (a held round is ruled)."""
        rated = row.status == TableState.CONFIRMED
        results.forfeit(self.ctx, self.t, row, list(losers))
        if rated and row.status != TableState.CONFIRMED:  # a played table's hands go
            self._later_restate()
        return TableForfeited(row, tuple(losers), self.settle(r, ruled=True))

    # --- ratings and places, kept with the results (bot.application.ratings) ---------------
    async def _rate(self, row: TableRow) -> None:
        """A table just reported or confirmed: once settled, its hands are rated."""
        if row.status == TableState.CONFIRMED:
            await ratings.rate(self.ctx.uow.repo, self.t, [row])

    async def _restate(self) -> None:
        """A correction: the event's ratings (and the later events') and its places again."""
        if self.t.status == EventStatus.SIGNUP:  # nothing played, nothing rated
            return
        await self.whole()
        await ratings.restate(self.ctx.uow.repo, self.t)

    def _later_restate(self) -> None:
        """:meth:`_restate`, once this update's verb is done (a verb that is not async)."""
        self.ctx.uow.defer(self._restate)

    def _moved(self) -> tuple[Settled, ...]:
        """After a ruling on a player: the standings moved, once they are on show (the
        live standings posted), in the latest round."""
        r = latest_round(self.t)
        return (StandingsMoved(r),) if r is not None and self.t.live_at is not None else ()

    async def penalise(
        self, player: Player, points: Decimal, kind: PenaltyKind, reason: str
    ) -> PenaltyGiven:
        await results.penalise(self.ctx, self.t, player, points, kind, reason)
        return PenaltyGiven(player, points, reason, then=self._moved() if points else ())

    async def warn(self, player: Player, reason: str) -> PenaltyGiven | PlayerDisqualified:
        """The warning ladder (docs/rules/penalties.md): warning → −1 → disqualification."""
        offence = 1 + sum(
            p.kind == PenaltyKind.LADDER for p in self.t.penalties if p.user_id == player.user_id
        )
        step = ladder(offence)
        if step.rung is Rung.DISQUALIFY:
            row = results.disqualify(self.ctx, self.t, player)
            return PlayerDisqualified(player, offence, self._walked(row), row)
        await results.penalise(self.ctx, self.t, player, step.points, PenaltyKind.LADDER, reason)
        moved = self._moved() if step.points else ()  # a warning moves nobody
        return PenaltyGiven(player, step.points, reason, offence, moved)

    def disqualify(self, player: Player, reason: str = "") -> PlayerDisqualified:
        """Removed (docs/rules/penalties.md#disqualification); a table still to be played
        is a walkover at once, which may settle the round."""
        row = results.disqualify(self.ctx, self.t, player, reason)
        return PlayerDisqualified(player, then=self._walked(row), table=row)

    def no_shows(self, r: Round) -> NoShowsRuled:
        """The check-in cut-off, once: clearing it closes the check-in."""
        ruled = results.no_shows(self.ctx, self.t, r)
        r.checkin_until = None
        absent = tuple((row, tuple(out)) for row, out in ruled)
        return NoShowsRuled(r.number, absent, self.settle(r))

    def late(self, r: Round, due: Sequence[TableRow], at: datetime) -> DeadlineRuled:
        accepted, forfeited, waiting = results.late(self.ctx, self.t, r, list(due), at)
        self.ctx.uow.defer(lambda: ratings.rate(self.ctx.uow.repo, self.t, accepted))
        return DeadlineRuled(r, tuple(accepted), tuple(forfeited), tuple(waiting), self.settle(r))

    async def undo(self) -> RulingUndone:
        """Take back the organiser's last ruling; the latest round settles again."""
        action = await results.undo(self.ctx, self.t)
        await self._restate()  # a result back or gone, or a penalty: places may move
        r = latest_round(self.t)
        return RulingUndone(action, self.settle(r) if r is not None else ())
