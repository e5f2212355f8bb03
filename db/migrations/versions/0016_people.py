"""people come and go: the round a late entrant joined, the round after which a player
dropped out, and a waiting player's place in the queue

Revision ID: 0016_people
Revises: 0015_seat_index
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_people"
down_revision = "0015_seat_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, as 0012 does: SQLite adds them in place.
    op.add_column(
        "players",
        sa.Column("entered_round", sa.Integer(), server_default="0", nullable=False),
    )
    op.add_column("players", sa.Column("dropped_round", sa.Integer(), nullable=True))
    op.add_column("players", sa.Column("queued", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    for column in ("queued", "dropped_round", "entered_round"):
        op.drop_column("players", column)
