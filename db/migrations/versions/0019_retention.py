"""Pictures sent once and retention: an outbox row keeps the file id Telegram gave its
picture or file (and what it was, to send the same again by that id) instead of its
bytes; the messages later edits name keep their ids on the rows that own them, so the
outbox rows that sent them can be pruned (``db.retention``)

The bytes of the rows already done with (sent, superseded, failed) go: Telegram has the
pictures, and nothing sends those rows again. (The file shrinks at SQLite's next
``VACUUM``; PostgreSQL reuses the space.)

Revision ID: 0019_retention
Revises: 0017_refusals
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_retention"
down_revision = "0018_ledger"
branch_labels = None
depends_on = None

DELIVERED_FILE = "file_id IS NOT NULL"


def upgrade() -> None:
    # Plain ADD COLUMN, as 0012 does: SQLite adds them in place.
    op.add_column("outbox", sa.Column("file_id", sa.String(255), nullable=True))
    op.add_column("outbox", sa.Column("file_digest", sa.String(64), nullable=True))
    op.create_index(
        "ix_outbox_file",
        "outbox",
        ["file_digest"],
        postgresql_where=sa.text(DELIVERED_FILE),
        sqlite_where=sa.text(DELIVERED_FILE),
    )
    op.add_column("tournaments", sa.Column("live_message_id", sa.BigInteger(), nullable=True))
    op.add_column("tournaments", sa.Column("signup_message_id", sa.BigInteger(), nullable=True))
    op.add_column("reports", sa.Column("message_id", sa.BigInteger(), nullable=True))
    op.execute(
        "UPDATE outbox SET file = NULL"
        " WHERE file IS NOT NULL AND status IN ('sent', 'superseded', 'failed')"
    )


def downgrade() -> None:
    op.drop_column("reports", "message_id")
    op.drop_column("tournaments", "signup_message_id")
    op.drop_column("tournaments", "live_message_id")
    op.drop_index("ix_outbox_file", table_name="outbox")
    op.drop_column("outbox", "file_digest")
    op.drop_column("outbox", "file_id")
