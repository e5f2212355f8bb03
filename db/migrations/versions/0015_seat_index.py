"""seats: who sits at which table of a round; tables by round and status

A bare /confirm looked for the player's table by searching every table's JSON list of
seats in the round (json_each on SQLite, jsonb containment on PostgreSQL), and every
confirmed result counted the round's pending tables: both cost as much as the round
had tables. The seat index and (round_id, status) make each one lookup; the latter
also serves what ix_tables_round_id did, which goes.

Revision ID: 0015_seat_index
Revises: 0014_outbox_indexes
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_seat_index"
down_revision = "0014_outbox_indexes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    seats = op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_seats_round_user", "seats", ["round_id", "user_id"])
    tables = sa.table(
        "tables",
        sa.column("id", sa.Integer()),
        sa.column("round_id", sa.Integer()),
        sa.column("seats", sa.JSON()),
    )
    conn = op.get_bind()
    rows = [
        {"round_id": round_id, "user_id": user, "table_id": table_id}
        for table_id, round_id, users in conn.execute(
            sa.select(tables.c.id, tables.c.round_id, tables.c.seats)
        )
        for user in users
    ]
    if rows:
        op.bulk_insert(seats, rows)
    op.create_index("ix_tables_round_status", "tables", ["round_id", "status"])
    op.drop_index("ix_tables_round_id", table_name="tables")


def downgrade() -> None:
    op.create_index("ix_tables_round_id", "tables", ["round_id"])
    op.drop_index("ix_tables_round_status", table_name="tables")
    op.drop_index("ix_seats_round_user", table_name="seats")
    op.drop_table("seats")
