"""scale-out: the send budget (token buckets) shared by every worker

Revision ID: 0010_scaleout
Revises: 0009_hardening
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_scaleout"
down_revision = "0009_hardening"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "send_budget",
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("blocked_until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("send_budget")
