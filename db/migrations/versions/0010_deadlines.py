"""deadlines: reminder bookkeeping, per-table and sign-up deadlines, and the users who
opened a private chat with the bot (reminders and sign-up deadlines are recorded in
0009's ``fired_timers`` when they run)

Revision ID: 0010_deadlines
Revises: 0007_speed
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_deadlines"
down_revision = "0007_speed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("signup_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deadline_set_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("deadline_set_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "private_chats",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column(
            "at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    op.drop_table("private_chats")
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("deadline_set_at")
        batch_op.drop_column("deadline")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("deadline_set_at")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("signup_until")
