"""Application: one update in, one transaction, replies out.

The core admits a command (``commands``), the handlers parse it and call the event's
operations (``service``), which ask the engine to decide and store the outcome with its
audit entry. Stored rows become engine objects in ``tournament``; timers are planned
from the same rows in ``timers``.
"""
