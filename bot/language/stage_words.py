"""A format's declared stages as /rules says them, one line per stage (name, kind, match
length, who goes on, tie chain), from the same declaration the planner runs
(``engine.formats.stage``; docs/rules/multistage.md#rules)."""

from __future__ import annotations

from bot.language.i18n import Translator
from engine.formats.stage import Goes, Length, Stage


def stage_length(t: Translator, length: Length) -> str:
    """How long a match of the stage is, in words."""
    if length.session:
        return t("stage_length.session")
    if length.sudden:
        return t("stage_length.sudden")
    if length.totals:
        return t("stage_length.totals", n=length.best_of)
    if length.best_of == 1:
        return t("stage_length.one")
    n = length.best_of
    timed = t("stage_rules.timed")
    return t("stage_length.best-of", n=n, win=n // 2 + 1, timed=timed)


def stage_goes(t: Translator, stage: Stage) -> str:
    """Who goes on from the stage, in words (/rules, and docs/rules/README.md#stages)."""
    lucky = t("stage_rules.best-losers" if stage.best_losers else "stage_rules.no-best-losers")
    several = stage.goes is Goes.WINNER and stage.k > 1  # the top k of a table go on
    key = "stage_goes.top-table" if several else f"stage_goes.{stage.goes}"
    return t(key, k=stage.k, lucky=lucky)


def stage_line(t: Translator, n: int, stage: Stage) -> str:
    """One played stage in words."""
    chain = t("stage_rules.chain-separator").join(t(f"tiebreak.{c}") for c in stage.tiebreaks)
    return t(
        "stage_rules.line",
        n=n,
        name=t(f"stage_name.{stage.name}"),
        kind=t(f"stage_kind.{stage.kind}", k=stage.k),
        length=stage_length(t, stage.length),
        goes=stage_goes(t, stage),
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
