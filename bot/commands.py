"""Chat command grammar: ``/name[@bot] args`` → (name, args), ignoring other bots."""

from __future__ import annotations

import re

_COMMAND = re.compile(r"^/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s+(.*))?$", re.S)


def parse_command(text: str, bot_username: str) -> tuple[str, str] | None:
    """Split a command; ``None`` when it is not a command or is addressed to another bot."""
    match = _COMMAND.match(text.strip())
    if not match:
        return None
    name, target, args = match.groups()
    if target and target.lower() != bot_username.lower():
        return None
    return name.lower(), (args or "").strip()
