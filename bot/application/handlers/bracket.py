"""/bracket: the knockout tree as pictures, for formats that have one (单败淘汰, the
playoffs of 小组循环), with every match's score, the champion, and the last three's round
robin as a small table; other formats are refused politely with a pointer to /standings."""

from __future__ import annotations

from decimal import Decimal

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import event_status, group_lines
from bot.application.handlers.match_lines import match_lines
from bot.application.tournament import format_of, names, state_of
from bot.language.errors import UserError
from bot.language.i18n import show
from bot.presentation.board import ranking_lines
from bot.presentation.pictures import drawn, send_pictures
from charts.data import BRACKET_LABEL_KEYS, Match, Row, Sheet
from charts.jobs import bracket_pngs, sheet_pngs
from db.models import TableRow, Tournament
from db.status import EventStatus, TableState
from engine.formats.elimination import THIRD_NOTE, BracketRound
from engine.model import TournamentState


async def bracket(ctx: Ctx, args: str) -> None:
    event = await Event.load(ctx, finished=True)
    t, fmt = event.t, event.fmt
    if not fmt.has_bracket:
        raise UserError("bracket.none", format=ctx.t(f"format.{t.format}"))
    if not t.rounds:
        raise UserError("refuse.not-drawn")
    state = event.state
    rounds = fmt.bracket(state)
    if not rounds and fmt.rules_variant == "tables":  # the playoff is one final table
        raise UserError("outcome.no-tree", groups=group_lines(ctx, event).strip())
    if not rounds:
        raise UserError("bracket.not-yet")
    matches = bracket_matches(t, rounds)
    pngs: list[bytes] = (
        await drawn(
            bracket_pngs,
            matches,
            ctx.t("bracket.title", title=t.title),
            {key: ctx.t(f"bracket.{key}") for key in BRACKET_LABEL_KEYS},
            third_place_match(t),
        )
        or []
    )
    robin = robin_sheet(ctx, t, rounds, state)
    if pngs and robin is not None:
        pngs += await drawn(sheet_pngs, robin) or []
    lines = ranking_lines(ctx, t, event.board())
    caption = ctx.t("bracket.caption", title=t.title) + "\n" + event_status(ctx, t)
    caption += match_lines(ctx, t) + third_place_line(ctx, t)
    send_pictures(ctx, pngs, caption + "\n" + lines, "tree")


def bracket_matches(t: Tournament, rounds: tuple[BracketRound, ...]) -> list[list[Match]]:
    """The engine's knockout tree as the picture draws it: names, the latest confirmed
    score of each meeting, and which earlier matches feed each one."""
    who = names(t)

    def name(user: int | None) -> str:
        return who.get(user, str(user)) if user is not None else ""

    scores = _meetings(t)
    matches: list[list[Match]] = []
    for r, rnd in enumerate(rounds):
        row = []
        for a, b, w in rnd:
            got = scores.get(frozenset((a, b)), {}) if b is not None else {}
            feeds = tuple(
                j for j, (_, _, won) in enumerate(rounds[r - 1] if r else ()) if won in (a, b)
            )
            row.append(
                Match(
                    name(a),
                    name(b),
                    name(w),
                    show(got[a]) if a in got else "",
                    show(got[b]) if b is not None and b in got else "",
                    feeds,
                )
            )
        matches.append(row)
    return matches


def third_place_match(t: Tournament) -> Match | None:
    """The match for third place (knob ``third``), drawn beside the tree's final: its two
    players (pairs: by their first members, seats A and B, as the tree names them), its
    latest confirmed score and its winner; ``None`` where none was drawn."""
    row = next(
        (row for r in t.rounds if THIRD_NOTE in r.notes for row in r.tables if row.number == 2),
        None,
    )
    if row is None:
        return None
    a, b = row.seats[:2]
    who = names(t)
    got = _meetings(t).get(frozenset((a, b)), {})
    won = max((a, b), key=got.__getitem__) if got and got[a] != got[b] else None
    return Match(
        who[a],
        who[b],
        who[won] if won is not None else "",
        show(got[a]) if got else "",
        show(got[b]) if got else "",
    )


def third_place_line(ctx: Ctx, t: Tournament) -> str:
    """The match for third place in words, under the tree's matches."""
    third = third_place_match(t)
    if third is None:
        return ""
    score = f"{third.first_score} : {third.second_score}" if third.first_score else "—"
    return "\n" + ctx.t("bracket.third", a=third.first, b=third.second, score=score)


def _live_scores(row: TableRow) -> dict[int, Decimal]:
    live = next((rep for rep in row.reports if rep.live), None)
    if row.status != TableState.CONFIRMED or live is None:
        return {}
    return {p: Decimal(s) for p, s in zip(row.seats, live.scores, strict=True)}


def _meetings(t: Tournament) -> dict[frozenset[int], dict[int, Decimal]]:
    """The latest confirmed score of each meeting of two (a replayed tie shows the
    deciding game). A table of two pairs (partners opposite: A and C against B and D) is
    the meeting of seats A and B, the first members the engine's tree names each pair by,
    each with the pair's points."""
    out: dict[frozenset[int], dict[int, Decimal]] = {}
    for r in t.rounds:
        for row in r.tables:
            got = _live_scores(row)
            if len(row.seats) == 2 and got:
                out[frozenset(row.seats)] = got
            elif len(row.seats) == 4 and got:
                a, b, c, d = row.seats
                out[frozenset((a, b))] = {a: got[a] + got[c], b: got[b] + got[d]}
    return out


def robin_sheet(
    ctx: Ctx,
    t: Tournament,
    rounds: tuple[BracketRound, ...],
    state: TournamentState | None = None,
) -> Sheet | None:
    """The round robin of the last three (docs/rules/bracket.md#last-three): the two-player
    tables played after the knockout's last meeting that are not knockout matches, and
    the champion once it is over (the tree above it ends before the round robin);
    ``state``: the event's engine state, when the caller has it."""
    knockout = {frozenset((a, b)) for rnd in rounds for a, b, _ in rnd if b}
    last = max(
        (r.number for r in t.rounds for row in r.tables if frozenset(row.seats) in knockout),
        default=0,
    )
    who = names(t)
    rows = []
    for r in t.rounds:
        if r.number <= last:
            continue
        for row in r.tables:
            if len(row.seats) != 2 or frozenset(row.seats) in knockout:
                continue
            got = _live_scores(row)
            a, b = row.seats
            score = f"{show(got[a])} : {show(got[b])}" if got else "—"
            rows.append(Row((str(r.number), who.get(a, str(a)), score, who.get(b, str(b)))))
    if not rows:
        return None
    over = t.status == EventStatus.FINISHED
    ranking = format_of(t).standings(state_of(t) if state is None else state) if over else ()
    champion = who.get(ranking[0].player, str(ranking[0].player)) if ranking else ""
    return Sheet(
        ctx.t("pictures.robin-title", title=t.title),
        ctx.t("pictures.robin-line"),
        (ctx.t("pictures.round-col"), "", "", ""),
        (1, 3.5, 1.6, 3.5),
        "clcr",
        tuple(rows),
        ctx.t("pictures.robin-champion", name=champion) if champion else "",
    )
