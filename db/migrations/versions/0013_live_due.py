"""live standings refreshed once for a burst of results: when the planned refresh is due

Revision ID: 0013_live_due
Revises: 0012_live_standings
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_live_due"
down_revision = "0012_live_standings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("live_due", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("tournaments", "live_due")
