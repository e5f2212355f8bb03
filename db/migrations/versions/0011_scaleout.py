"""scale-out: the send budget (token buckets) shared by every worker

Revision ID: 0011_scaleout
Revises: 0010_deadlines
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_scaleout"
down_revision = "0010_deadlines"
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
