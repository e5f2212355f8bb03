"""Telegram says no: a user who can no longer be written to (and their name), what an
outbox row falls back to, and the refusals the organisers of a chat were told of

Revision ID: 0017_refusals
Revises: 0016_people
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_refusals"
down_revision = "0016_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, as 0012 does: SQLite adds them in place.
    op.add_column("private_chats", sa.Column("name", sa.String(200), nullable=True))
    op.add_column("private_chats", sa.Column("gone", sa.String(16), nullable=True))
    op.add_column("outbox", sa.Column("fallback", sa.JSON(), nullable=True))
    op.create_table(
        "delivery_notices",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "reason"),
    )


def downgrade() -> None:
    op.drop_table("delivery_notices")
    op.drop_column("outbox", "fallback")
    op.drop_column("private_chats", "gone")
    op.drop_column("private_chats", "name")
