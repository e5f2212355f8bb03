"""A chat reads of the event's states in the order they happened: a reply to one person
(here a /standings picture) never arrives before an announcement queued before it,
though replies otherwise go first (``bot/transport/outbox.py``)."""

from __future__ import annotations

from tests.handlers.memory import Chats

GROUP, ADMIN = -5101, 1
PLAYERS = tuple(range(801, 809))


async def test_standings_asked_with_the_last_result_come_after_the_round_ends(
    chats: Chats,
) -> None:
    """The last table's result and a player's /standings reach the bot together: the
    standings (a reply) said the round was over before the chat was told so."""
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, "/round")
    assert "Table 1 confirmed" in await chats.says(GROUP, ADMIN, "/report 1 A0 B5 C8 D12")

    sent = await chats.burst(GROUP, [(ADMIN, "/report 2 A0 B5 C8 D12"), (PLAYERS[0], "/standings")])
    new = [m.text.split("\n")[0] for m in sent if m.edits == 0]  # in the order sent
    assert len(new) == 3, new
    assert new[0].startswith("✅ Table 2 confirmed")
    assert new[1].startswith("✅ Round 1 is complete")
    assert "standings, round 1" in new[2]  # the reply, after the state it shows
