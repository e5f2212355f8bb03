"""ratings and finished events' places kept with the results that move them
(docs/rules/ratings.md#kept): each rated event's snapshot per player, each player's
rating now, and each finished event's places and season points

The upgrade replays the history once (``engine.ratings``, event by event in each chat's
game) to fill the ratings. The places of the events finished before it are the bot's to
rank (ranking reads rows as the bot does): it keeps them the first time /me, /season or
/export season reads the chat, once.

Revision ID: 0018_ledger
Revises: 0017_refusals
"""

from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

from engine.games import find_game
from engine.ratings import NEW, Encounter, Rating, moves, table_hands

revision = "0018_ledger"
down_revision = "0017_refusals"
branch_labels = None
depends_on = None


def stub(table: str, /, **types: Any) -> sa.TableClause:
    """The columns of a table as this revision reads them (not the models: they move on)."""
    return sa.table(table, *(sa.column(column, kind) for column, kind in types.items()))


TOURNAMENTS = stub(
    "tournaments",
    id=sa.Integer,
    chat_id=sa.BigInteger,
    game=sa.String,
    options=sa.JSON,
    status=sa.String,
)
ROUNDS = stub("rounds", id=sa.Integer, tournament_id=sa.Integer, number=sa.Integer)
TABLES = stub(
    "tables",
    id=sa.Integer,
    round_id=sa.Integer,
    number=sa.Integer,
    seats=sa.JSON,
    status=sa.String,
)
REPORTS = stub("reports", table_id=sa.Integer, text=sa.Text, scores=sa.JSON, live=sa.Boolean)
PLAYERS = stub("players", tournament_id=sa.Integer, user_id=sa.BigInteger, name=sa.String)


def upgrade() -> None:
    op.create_table(
        "event_ratings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("before_games", sa.Integer(), nullable=False),
        sa.Column("moved", sa.Float(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
    )
    op.create_index(
        "ix_event_ratings_player",
        "event_ratings",
        ["chat_id", "game", "user_id", "tournament_id"],
        unique=False,
    )
    op.create_table(
        "ratings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("event", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "game", "user_id"),
    )
    op.create_table(
        "event_results",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("points", sa.Numeric(16, 4), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("season_points", sa.Numeric(16, 4), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
    )
    op.create_index(
        "ix_event_results_player", "event_results", ["chat_id", "user_id"], unique=False
    )
    op.create_index("ix_event_results_season", "event_results", ["season_id"], unique=False)
    replay(op.get_bind())


def hands(conn: sa.Connection) -> dict[int, list[Encounter]]:
    """Every rated hand of every event that stands, by event, in the order played."""
    games = {
        t.id: find_game(t.game)((t.options or {}).get("game", {}))
        for t in conn.execute(
            sa.select(TOURNAMENTS).where(TOURNAMENTS.c.status.in_(("running", "finished")))
        )
    }
    live = {r.table_id: r for r in conn.execute(sa.select(REPORTS).where(REPORTS.c.live.is_(True)))}
    played = conn.execute(
        sa.select(ROUNDS.c.tournament_id, TABLES.c.id, TABLES.c.seats)
        .join(ROUNDS, ROUNDS.c.id == TABLES.c.round_id)
        .where(TABLES.c.status == "confirmed")
        .order_by(ROUNDS.c.tournament_id, ROUNDS.c.number, TABLES.c.number)
    )
    out: dict[int, list[Encounter]] = {event: [] for event in games}
    for event, table_id, seats in played:
        report = live.get(table_id)
        if event in games and report is not None:
            out[event] += table_hands(games[event], tuple(seats), report.text, report.scores)
    return out


def replay(conn: sa.Connection) -> None:
    """Fold each chat's events of each game once, in order, as the bot keeps them."""
    of_event = hands(conn)
    events = conn.execute(
        sa.select(TOURNAMENTS.c.id, TOURNAMENTS.c.chat_id, TOURNAMENTS.c.game)
        .where(TOURNAMENTS.c.id.in_(of_event))
        .order_by(TOURNAMENTS.c.id)
    ).all()
    names = {(p.tournament_id, p.user_id): p.name for p in conn.execute(sa.select(PLAYERS))}
    now: dict[tuple[int, str], dict[int, Rating]] = defaultdict(dict)
    last: dict[tuple[int, str, int], int] = {}
    snapshots: list[dict[str, Any]] = []
    for event, chat, game in events:
        encounters = of_event[event]
        ratings = now[(chat, game)]
        moved, played = moves(ratings, encounters)
        for p in moved:
            start = ratings.get(p, NEW)
            snapshots.append(
                {
                    "tournament_id": event,
                    "user_id": p,
                    "chat_id": chat,
                    "game": game,
                    "before": start.value,
                    "before_games": start.games,
                    "moved": moved[p],
                    "hands": played[p],
                }
            )
            ratings[p] = Rating(start.value + moved[p], start.games + played[p])
            last[(chat, game, p)] = event
    if snapshots:
        op.bulk_insert(sa.table("event_ratings", *map(sa.column, snapshots[0])), snapshots)
    rows = [
        {
            "chat_id": chat,
            "game": game,
            "user_id": p,
            "value": r.value,
            "games": r.games,
            "event": last[(chat, game, p)],
            "name": names.get((last[(chat, game, p)], p), str(p)),
        }
        for (chat, game), ratings in now.items()
        for p, r in ratings.items()
    ]
    if rows:
        op.bulk_insert(sa.table("ratings", *map(sa.column, rows[0])), rows)


def downgrade() -> None:
    op.drop_index("ix_event_results_season", table_name="event_results")
    op.drop_index("ix_event_results_player", table_name="event_results")
    op.drop_table("event_results")
    op.drop_table("ratings")
    op.drop_index("ix_event_ratings_player", table_name="event_ratings")
    op.drop_table("event_ratings")
