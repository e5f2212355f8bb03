"""Telegram's half of a Mini App: the launch data a Telegram client hands the page,
signed with the bot's token as Telegram signs it, and the script that reads it there.

A client opens a Mini App at its URL with a fragment, ``#tgWebAppData=<initData>&
tgWebAppVersion=…&tgWebAppPlatform=…&tgWebAppThemeParams=<JSON>``, and Telegram's
``telegram-web-app.js`` exposes it as ``Telegram.WebApp`` (``initData``,
``initDataUnsafe``, ``themeParams``, ``colorScheme``) and sets the theme's colours as CSS
variables (``--tg-theme-bg-color``…). The real script is served by telegram.org, which
tests and the playground cannot reach: :data:`SCRIPT` is a stand-in that reads the same
fragment, served at the same path (``/js/telegram-web-app.js``), so a page is launched
here the way a Telegram client launches it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

SCRIPT_PATH = "/js/telegram-web-app.js"
SCRIPT = resources.files("playground.botapi") / "telegram-web-app.js"

# Telegram's own theme colours (the keys of ThemeParams), light and dark.
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
    "section_bg_color": "#ffffff",
    "destructive_text_color": "#ff3b30",
}
DARK = {
    "bg_color": "#212d3b",
    "text_color": "#ffffff",
    "hint_color": "#7d8b99",
    "link_color": "#5eabe1",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#151e27",
    "section_bg_color": "#17212b",
    "destructive_text_color": "#ec3942",
}


def init_data(
    token: str,
    user: dict[str, Any],
    auth_date: int,
    *,
    start_param: str | None = None,
    chat_type: str | None = None,
    extra: dict[str, str] | None = None,
) -> str:
    """The query string a Mini App receives, signed as Telegram signs it: HMAC-SHA256 of
    the sorted ``key=value`` lines under HMAC-SHA256("WebAppData", token)."""
    fields = {
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(auth_date),
        "query_id": f"AAH{user['id']}{auth_date}",
        **({"start_param": start_param} if start_param else {}),
        **({"chat_type": chat_type, "chat_instance": "-1"} if chat_type else {}),
        **(extra or {}),
    }
    lines = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, lines.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def launch_url(app_url: str, data: str, theme: dict[str, str] | None = None) -> str:
    """The URL a Telegram client opens: the app's, with the launch fragment."""
    fragment = {
        "tgWebAppData": data,
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "web",
        "tgWebAppThemeParams": json.dumps(theme or LIGHT, separators=(",", ":")),
    }
    return f"{app_url}#{urlencode(fragment)}"


async def serve_script(request: web.Request) -> web.Response:
    return web.Response(body=SCRIPT.read_bytes(), content_type="text/javascript")
