"""outbox: partial indexes of the waiting rows and of the tagged ones, for the sender

The sender's look at the outbox went through an index of every row's status. On
PostgreSQL that index handed back every dead version of the rows a burst had queued
(43,757 for one waiting row after the benchmark), each pass, until a vacuum.

Revision ID: 0014_outbox_indexes
Revises: 0013_live_due
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_outbox_indexes"
down_revision = "0013_live_due"
branch_labels = None
depends_on = None

WAITING = "status IN ('queued', 'sending')"
TAGGED = "tag IS NOT NULL"


def upgrade() -> None:
    op.drop_index("ix_outbox_status", table_name="outbox")
    op.drop_index("ix_outbox_chat_id", table_name="outbox")
    op.create_index(
        "ix_outbox_waiting",
        "outbox",
        ["chat_id", "broadcast", "id"],
        postgresql_where=sa.text(WAITING),
        sqlite_where=sa.text(WAITING),
    )
    op.create_index(
        "ix_outbox_tagged",
        "outbox",
        ["chat_id", "tag"],
        postgresql_where=sa.text(TAGGED),
        sqlite_where=sa.text(TAGGED),
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_tagged", table_name="outbox")
    op.drop_index("ix_outbox_waiting", table_name="outbox")
    op.create_index("ix_outbox_chat_id", "outbox", ["chat_id"])
    op.create_index("ix_outbox_status", "outbox", ["status"])
