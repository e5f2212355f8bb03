"""A format's declared stages as /rules says them, one line per stage (name, kind, match
length, who goes on, tie chain), from the same declaration the planner runs
(``engine.formats.stage``; docs/rules/multistage.md#rules)."""

from __future__ import annotations

from bot.language.i18n import Translator
from engine.formats.stage import Stage


def stage_line(t: Translator, n: int, stage: Stage) -> str:
    """One played stage in words."""
    best = stage.length.best_of
    length = (
        t("stage_length.one")
        if best == 1
        else t("stage_length.best-of", n=best, win=best // 2 + 1, timed=t("stage_rules.timed"))
    )
    lucky = t("stage_rules.best-losers") if stage.best_losers else ""
    goes = t(f"stage_goes.{stage.goes}", k=stage.k, lucky=lucky)
    chain = t("stage_rules.chain-separator").join(t(f"tiebreak.{c}") for c in stage.tiebreaks)
    return t(
        "stage_rules.line",
        n=n,
        name=t(f"stage_name.{stage.name}"),
        kind=t(f"stage_kind.{stage.kind}"),
        length=length,
        goes=goes,
        chain=chain,
    )


def stage_lines(t: Translator, course: tuple[tuple[Stage, bool], ...], players: int) -> str:
    """Every declared stage, those a field of ``players`` skips said as skipped."""
    return "\n".join(
        stage_line(t, n, stage)
        if played
        else t("stage_rules.skipped", n=n, name=t(f"stage_name.{stage.name}"), players=players)
        for n, (stage, played) in enumerate(course, 1)
    )
