"""live standings and a quiet outbox: when the pinned standings were last updated, and
outbox rows that are broadcasts, named by a tag, edits of a tagged message, or pinned

Revision ID: 0012_live_standings
Revises: 0011_scaleout
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_live_standings"
down_revision = "0011_scaleout"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN: SQLite adds these in place, where a batch rebuild of
    # ``tournaments`` would trip over the foreign keys pointing at it.
    op.add_column("tournaments", sa.Column("live_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "tournaments", sa.Column("live_picture_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column(
        "tournaments",
        sa.Column("live_pin", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column(
        "outbox", sa.Column("broadcast", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column("outbox", sa.Column("tag", sa.String(length=64), nullable=True))
    op.add_column("outbox", sa.Column("edit_tag", sa.String(length=64), nullable=True))
    op.add_column(
        "outbox", sa.Column("pin", sa.Boolean(), server_default=sa.false(), nullable=False)
    )


def downgrade() -> None:
    for column in ("pin", "edit_tag", "tag", "broadcast"):
        op.drop_column("outbox", column)
    for column in ("live_pin", "live_picture_at", "live_at"):
        op.drop_column("tournaments", column)
