"""hardening: fired round timers are recorded; an outbox row being sent holds a lease

Revision ID: 0009_hardening
Revises: 0008_ratings
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_hardening"
down_revision = "0008_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fired_timers",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("tournament_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("round_number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("kind", "tournament_id", "round_number", "due"),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("lease_until")
    op.drop_table("fired_timers")
