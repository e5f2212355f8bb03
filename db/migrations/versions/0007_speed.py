"""speed: a version counter per tournament, bumped with every audited change, so
standings and pictures are computed once per version

Revision ID: 0007_speed
Revises: 0009_hardening
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_speed"
down_revision = "0009_hardening"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite supports it with a constant default): a batch copy of
    # the table would be refused, other tables' foreign keys point at it.
    op.add_column(
        "tournaments",
        sa.Column("version", sa.Integer(), server_default=sa.text("0"), nullable=False),
    )


def downgrade() -> None:
    op.drop_column("tournaments", "version")
