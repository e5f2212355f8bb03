"""Engine test hooks: the simulation suite's count of whole events, printed at the end."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The run says how many whole events the simulation played."""
    from tests.engine import test_simulation

    if test_simulation.PLAYED:
        terminalreporter.write_line(
            f"simulation: {sum(test_simulation.PLAYED)} whole events played to the end"
        )
