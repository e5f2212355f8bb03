"""A format's stages as data (docs/rules/multistage.md#stages): the planners, the ranking
and /rules read the same :class:`Stage`, so what /rules promises is what is played."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import ConfigError
from engine.formats.series import SUDDEN, TABLE_MATCH, note_number, series_length


class Kind(StrEnum):
    """What a stage plays: ``multistage`` runs the first three, other presets declare the rest."""

    GROUPS = "groups"  # round-robin groups, the top k of each go on
    KNOCKOUT = "knockout"  # tables by lot, each table's winner goes on, until one table is left
    FINAL = "final"  # one table decides the champion
    SWISS = "swiss"  # re-seated by score each round
    BRACKET = "bracket"  # single elimination with byes, halving
    CROSSOVER = "crossover"  # group A's first against group B's second
    CARDS = "cards"  # pairs meet the pair that drew the same card's twin
    SCORE = "score"  # a score stage of N hands from a base
    ROBIN = "robin"  # the last N play a round robin
    THIRD = "third"  # the semi-final losers play for third place


class Goes(StrEnum):
    """Who goes on from a stage."""

    TOP = "top"  # the top k of each group
    WINNER = "winner"  # each table's (or match's) winner
    CHAMPION = "champion"  # nobody: the stage crowns the champion
    STANDINGS = "standings"  # nobody goes out: ``k`` rounds, then the standings decide
    FILL = "fill"  # group winners, then runners-up, until the ``k`` seats of the final are full
    OVERALL = "overall"  # the top ``k`` of the whole stage go on
    PLACE = "place"  # nobody goes on: the winner takes place ``k`` (the third-place match)


@dataclass(frozen=True)
class Length:
    """How long one match of the stage is: ``best_of`` hands (games at two-player tables),
    the first to win more than half of them wins it; 1 is one hand (一局定胜负)."""

    best_of: int = 1
    timed: bool = False  # a clock may stop the match: the score so far decides (以当前比分)
    sudden: bool = False  # two games, then one more until someone wins
    totals: bool = False  # all ``best_of`` hands are played and the score total decides
    session: bool = False  # one result a table, as the game takes it (a hand or a session)


@dataclass(frozen=True)
class Stage:
    """One declared stage: kind, name (``preliminary`` 预选赛, ``group`` 小组赛, ``knockout``
    淘汰赛, ``final`` 决赛), match length, who goes on and its tie-break chain."""

    kind: Kind
    name: str
    length: Length
    goes: Goes
    k: int = 0  # the number ``goes`` speaks of (``top``: of each group)
    best_losers: bool = True  # whether the best losers fill a table too few reached
    tiebreaks: tuple[str, ...] = ()  # codes of docs/rules/tiebreaks.md, most important first

    def words(self) -> str:
        """The stage in the grammar of :func:`parse_stages` (what ``/set stages`` stores)."""
        top = f" top{self.k}" if self.goes is Goes.TOP else ""
        return f"{self.kind}{top} bo{self.length.best_of}"


# The chains each kind applies (docs/rules/tiebreaks.md#chains): in a group as ``groups``
# ranks it; a match by hands won, the tied playing an extra hand, else a flip.
GROUP_CHAIN = ("points", "wins", "head-to-head", "flip")
MATCH_CHAIN = ("match-won", "extra", "flip")

# Codes of a ranking chain that order players across stages, not those level in one stage.
ACROSS = ("removed", "reached")


def within(chain: tuple[str, ...]) -> tuple[str, ...]:
    """A format's ranking chain as one of its stages applies it to players level there."""
    return tuple(code for code in chain if code not in ACROSS)


def match_length(notes: tuple[str, ...], hands: int | None = None) -> Length:
    """A match's length as the round's notes set it (``engine.formats.series``)."""
    if SUDDEN in notes:
        return Length(2, sudden=True)
    if "one-hand" in notes:
        return Length()
    if table := note_number(notes, TABLE_MATCH):
        return Length(table, timed=True)
    if best_of := series_length(notes):
        return Length(best_of)
    return Length(hands, totals=hands > 1) if hands else Length(session=True)


# The words of the grammar, English and Chinese.
KIND_WORDS = {
    **dict.fromkeys(("groups", "group", "小组", "小组赛", "预选赛"), Kind.GROUPS),
    **dict.fromkeys(("knockout", "淘汰", "淘汰赛"), Kind.KNOCKOUT),
    **dict.fromkeys(("final", "决赛"), Kind.FINAL),
}
TOP_WORD = re.compile(r"(?:top|前)(\d+)")
BEST_OF_WORD = re.compile(r"bo(\d+)|(\d+)局")
BEST_OF = (1, 3, 5, 7)
KNOWN = ("groups", "knockout", "final", "top<k>", "bo<n>", "小组", "淘汰", "决赛", "前<k>", "<n>局")

DEFAULT_STAGES = "groups top2 groups top2 knockout bo5 final bo7"


def _number(word: str, pattern: re.Pattern[str]) -> int | None:
    """``top2`` → 2, ``5局`` → 5: the number a setting word gives; ``None`` for another word."""
    found = pattern.fullmatch(word)
    return int(found.group(found.lastindex or 0)) if found else None


def parse_stages(text: str) -> tuple[Stage, ...]:
    """Read ``<kind> [top<k>] [bo<n>]`` per stage (docs/rules/multistage.md#set-stages),
    refusing anything else with the word and the known words."""
    raw: list[tuple[Kind, int | None, int | None]] = []
    for word in text.lower().split():
        kind = KIND_WORDS.get(word)
        if kind is not None:
            raw.append((kind, None, None))
            continue
        top, best = _number(word, TOP_WORD), _number(word, BEST_OF_WORD)
        if not raw or (top is None and best is None):
            raise ConfigError("stage-word", word=word, known=KNOWN)
        kind, k, n = raw[-1]
        if top is not None and (kind is not Kind.GROUPS or top < 1):
            raise ConfigError("stage-top", word=word)
        if best is not None and best not in BEST_OF:
            raise ConfigError("stage-best-of", word=word, choices=BEST_OF)
        raw[-1] = (kind, k if top is None else top, n if best is None else best)
    kinds = [kind for kind, _, _ in raw]
    if not kinds or kinds[-1] is not Kind.FINAL or kinds.count(Kind.FINAL) != 1:
        raise ConfigError("stage-final", stages=text)
    out = []
    for i, (kind, k, n) in enumerate(raw):
        if kind is Kind.GROUPS:  # the last groups are 小组赛, earlier ones 预选赛
            name = "preliminary" if Kind.GROUPS in kinds[i + 1 :] else "group"
            out.append(Stage(kind, name, Length(n or 1), Goes.TOP, k or 2, tiebreaks=GROUP_CHAIN))
        else:  # a knockout's table winners go on; the final crowns the champion
            goes, on, best = (Goes.WINNER, 1, 5) if kind is Kind.KNOCKOUT else (Goes.CHAMPION, 0, 7)
            out.append(
                Stage(kind, kind.value, Length(n or best, True), goes, on, True, MATCH_CHAIN)
            )
    return tuple(out)


def stage_words(stages: tuple[Stage, ...]) -> str:
    """The sequence as ``/set stages`` takes it, normalised."""
    return " ".join(s.words() for s in stages)


def stages_set_length(course: tuple[tuple[Stage, bool], ...]) -> bool:
    """Whether every stage played sets how long a table plays (积分晋级's hands, a stage's
    match), so that a game's own end of a session (``Game.session_knobs``) is never read."""
    played = [stage for stage, plays in course if plays]
    return bool(played) and not any(stage.length.session for stage in played)
