"""The end-to-end suite's scenario bodies, run in memory (``tests/handlers/harness.py``).

Each scenario below is an e2e test function called unchanged with an in-memory harness:
the same steps and assertions through ``Core`` without HTTP or a Telegram library, in a
fraction of the time. The e2e files keep them over HTTP on one backend and database
each; timers fire here on a "restart" after the clock moved, as they do at start-up.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable

import pytest

from tests.e2e import (
    test_bigtwo_tournament,
    test_departments,
    test_noshow,
    test_paging,
    test_penalties,
    test_presets_elimination,
    test_presets_knockout,
    test_presets_swiss,
    test_presets_teams,
    test_report_flow,
    test_signup_together,
    test_undo,
    test_walkovers,
)
from tests.handlers.harness import MemoryHarness

Scenario = Callable[..., Awaitable[None]]
SCENARIOS: list[Scenario] = [
    test_presets_knockout.test_knockout_gives_the_leftover_a_bye_and_flips_a_tie_for_the_advancing_place,
    test_presets_swiss.test_swiss_reseats_by_score_rotates_byes_survives_a_forfeit_and_breaks_ties,
    test_presets_teams.test_team_event_sums_members_keeps_teammates_apart_and_breaks_a_tie_by_best_individual,
    test_presets_teams.test_pairs_draw_opponents_by_cards_send_the_joker_to_the_final_and_flip_a_tie,
    test_presets_teams.test_team_event_gives_the_player_who_does_not_fit_a_table_a_bye,
    test_presets_elimination.test_bracket_runs_with_a_bye_a_forfeit_and_a_drawn_final_replayed,
    test_presets_elimination.test_groups_run_round_robin_crossover_and_final,
    test_presets_elimination.test_stages_run_from_base_thirty_with_a_lucky_loser_and_a_tie_to_the_previous_stage,
    test_departments.test_swiss_rounds_seat_colleagues_of_one_department_apart,
    test_signup_together.test_a_team_signed_up_together_stays_together_and_the_lot_makes_the_rest,
    test_signup_together.test_a_pair_signed_up_together_sits_opposite_and_only_team_events_take_partners,
    test_penalties.test_penalties_cards_and_the_warning_ladder,
    test_bigtwo_tournament.test_big_two_knockout_runs_from_signup_to_winner,
    test_noshow.test_players_who_do_not_check_in_forfeit_and_their_tablemates_go_on,
    test_noshow.test_two_no_shows_remove_a_player_and_undo_takes_a_ruling_back,
    test_noshow.test_noshow_on_takes_the_games_seed_figure_and_bad_values_are_refused,
    test_paging.test_long_player_list_and_draw_are_one_paged_message_each,
    test_undo.test_undo_walks_back_penalty_forfeit_and_rule_change,
    test_report_flow.test_only_the_starter_taps_and_back_and_cancel_store_nothing,
    test_report_flow.test_organiser_picks_a_table_and_impossible_taps_are_explained,
    test_walkovers.test_a_partner_who_drops_loses_the_table_and_the_cut_off_spares_the_opponents,
    test_walkovers.test_a_dropped_players_place_takes_a_substitute_who_reads_the_title_in_me,
]  # fmt: skip


@pytest.mark.parametrize(
    "scenario", SCENARIOS, ids=[f"{s.__module__.rsplit('.', 1)[1]}:{s.__name__}" for s in SCENARIOS]
)
async def test_scenario_in_memory(
    memory_bot: MemoryHarness, scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    wants = inspect.signature(scenario).parameters
    await scenario(memory_bot, **({"monkeypatch": monkeypatch} if "monkeypatch" in wants else {}))
