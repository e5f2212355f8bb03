"""Message keys the bot builds at run time (``format.<key>``, ``tiebreak.<code>``,
``note.<code>``, ``flow.<game>.<step>``…) exist, in both languages, for every game,
format, tie-break, note and command the code declares. A new game or format that
forgets a message fails here, not in a chat."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.application.handlers.delivery import GONE, TOLD
from bot.application.routes import COMMANDS
from bot.application.service.results import REVERSE
from bot.application.tournament import POLICY_KNOBS
from bot.language.i18n import Catalogue
from db.status import ReportStatus
from engine.formats import FORMATS
from engine.games import GAMES

CATALOGUE = Catalogue()


def runtime_keys() -> set[str]:
    keys: set[str] = set()
    for game in GAMES:
        keys |= {f"game.{game.key}", f"rules.{game.key}"}
        keys |= {f"knob.{game.key}.{k.name}" for k in game.knobs}
        for seats in game.seat_counts:
            keys |= {f"flow.{game.key}.{step.name}" for step in game().flow(seats)}
    for fmt in FORMATS:
        keys |= {f"format.{fmt.key}", f"format_rules.{fmt.key}"}
        keys |= {f"tiebreak.{code}" for code in fmt.tiebreaks}
        keys |= {f"tiebreak.{code}" for code in fmt.team_tiebreaks}
        keys |= {f"note.{code}" for code in fmt.note_codes}
        if fmt.signs_up_together:
            keys |= {
                f"partners.{part}.{fmt.key}" for part in ("formed", "waiting", "line", "header")
            }
            keys.add(f"refuse.too-many-partners.{fmt.key}")
    for knob in POLICY_KNOBS:
        if knob.choices:
            keys |= {f"policy.{knob.name}.{value}" for value in knob.choices}
    keys |= {f"undo.what.{kind.action}" for kind in REVERSE}
    keys |= {f"delivery.{reason}" for reason in TOLD} | {f"players.why.{why}" for why in GONE}
    keys |= {f"refuse.already-{s}" for s in (ReportStatus.PENDING, ReportStatus.DISPUTED)}
    for command in COMMANDS:
        keys.add(f"menu.{command.name}")
        keys |= {f"role.{command.role.name.lower()}", f"stage.{command.stage.value}"}
        keys |= {f"help.header.{command.role.name.lower()}"}
        keys |= {f"help.section.{command.role.name.lower()}"}
    return keys


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_runtime_key_has_a_message(lang: str) -> None:
    keys = runtime_keys()
    assert {"game.paodekuai", "format.swiss", "note.best-of-5", "tiebreak.buchholz"} <= keys
    assert sorted(k for k in keys if not CATALOGUE[lang].has(k)) == []


def test_english_counts_one_player_and_two_players_chinese_has_no_plural() -> None:
    en, zh = CATALOGUE["en"], CATALOGUE["zh"]
    assert en("signup.joined", name="Ann", count=1) == "Ann has joined (1 player)."
    assert en("signup.joined", name="Ann", count=2) == "Ann has joined (2 players)."
    assert en("forfeit.done", table=3, count=1) == "Table 3: 1 player forfeits."
    assert "(s)" not in en("forfeit.done", table=3, count=4)
    assert "1 point " in en("penalty.done", name="Ann", points=Decimal(1), reason="x")
    assert "0.5 points" in en("penalty.done", name="Ann", points=Decimal("0.5"), reason="x")
    assert "1 player;" in en("error.too-few-players", players=1, need=3)
    assert zh("signup.joined", name="安", count=1) == zh("signup.joined", name="安", count=1)
    assert not zh.plurals


def test_plural_forms_use_only_the_blanks_of_their_other_form() -> None:
    import string

    def blanks(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f}

    for lang in ("zh", "en"):
        t = CATALOGUE[lang]
        for key, plural in t.plurals.items():
            other = blanks(plural.forms["other"])
            assert plural.by in other, key
            assert all(blanks(form) <= other for form in plural.forms.values()), key
    assert len(CATALOGUE["en"].plurals) >= 6
