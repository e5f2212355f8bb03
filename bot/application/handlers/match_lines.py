"""The latest round's two-player matches in words, for /standings and /bracket: each
match's score in games and the games themselves (``赵一 2–1 钱二（1-0; 0-1; 1-0）``), who
won, or that a level match waits for its next game (docs/rules/two-player.md)."""

from __future__ import annotations

from decimal import Decimal

from bot.application.context import Ctx
from bot.application.service import results
from bot.application.tournament import game_of, latest_round, names
from db.models import TableRow, Tournament
from db.status import ReportStatus, TableState
from engine.formats.series import games_won

MATCH_LINES = 20  # a long round shows its first tables; the picture has every score


def match_lines(ctx: Ctx, t: Tournament) -> str:
    """``\\n``-led lines for the latest round's two-player tables; empty without any."""
    r = latest_round(t)
    rows = [row for row in r.tables if len(row.seats) == 2] if r is not None else []
    if r is None or not rows:
        return ""
    who = names(t)
    lines = [ctx.t("matches.header", round=r.number)]
    lines += [match_line(ctx, t, row, who) for row in rows[:MATCH_LINES]]
    if len(rows) > MATCH_LINES:
        lines.append(ctx.t("matches.more", count=len(rows) - MATCH_LINES))
    return "\n\n" + "\n".join(lines)


def match_line(ctx: Ctx, t: Tournament, row: TableRow, who: dict[int, str]) -> str:
    a, b = (who.get(u, str(u)) for u in row.seats)
    current = results.live(row)
    if row.status == TableState.FORFEIT:
        return ctx.t("matches.forfeit", table=row.number, a=a, b=b)
    if current is None or current.status != ReportStatus.CONFIRMED:
        return ctx.t("matches.open", table=row.number, a=a, b=b)
    outcome = game_of(t).parse(current.text, 2)
    totals = [sum(side, Decimal(0)) for side in zip(*outcome.per_hand, strict=True)]
    score = games_won(totals, outcome)
    if row.status == TableState.PENDING:  # not decided yet: its next game is awaited
        return ctx.t(
            "matches.level" if totals[0] == totals[1] else "matches.undecided",
            table=row.number,
            a=a,
            b=b,
            score=score,
            games=current.text,
            game=outcome.hands + 1,
        )
    if totals[0] == totals[1]:
        return ctx.t("matches.drawn", table=row.number, a=a, b=b, score=score, games=current.text)
    winner = a if totals[0] > totals[1] else b
    return ctx.t(
        "matches.won", table=row.number, a=a, b=b, score=score, games=current.text, winner=winner
    )
