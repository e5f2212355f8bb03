"""The test suite.

The local Bot API server lived in ``tests/botapi`` before it became ``playground.botapi``
(``tourbot playground`` runs it too). Tests still import it under its old name: the
aliases below make ``tests.botapi`` and each ``tests.botapi.<module>`` the very same
module objects as ``playground.botapi…``, so classes and state are shared, not copied.
"""

import importlib
import pkgutil
import sys

import playground.botapi as botapi

sys.modules["tests.botapi"] = botapi
for _module in pkgutil.iter_modules(botapi.__path__):
    sys.modules[f"tests.botapi.{_module.name}"] = importlib.import_module(
        f"playground.botapi.{_module.name}"
    )
