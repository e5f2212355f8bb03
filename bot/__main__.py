"""``python -m bot``: the same as ``tourbot run``. Guarded: the drawing process
(``bot.presentation.pictures``) is spawned, and imports the main module again."""

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
