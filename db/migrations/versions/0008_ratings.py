"""seasons: a chat's named seasons and how they score (docs/rules/ratings.md#seasons)

Revision ID: 0008_ratings
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_ratings"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("scoring", sa.String(length=200), nullable=False),
        sa.Column("since_event", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_seasons_chat_id"), "seasons", ["chat_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_seasons_chat_id"), table_name="seasons")
    op.drop_table("seasons")
