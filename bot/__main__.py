"""``python -m bot``: the same as ``tourbot run``."""

import sys

from bot.cli import main

sys.exit(main())
