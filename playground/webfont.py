"""The page's web fonts: the pictures' CJK font, and the emoji the chat shows.

A browser draws a page's text with the machine's fonts, and a fresh Debian has no CJK
one: every Chinese word of the playground would be a row of boxes. The package already
carries WenQuanYi Micro Hei for the charts (:mod:`charts.fonts`), so the page gets the
same face from ``/fonts/cjk.woff`` (``@font-face`` in ``static/style.css``), and the chat
looks like its pictures.

The file is a collection (``.ttc``) of two faces; its first face is saved alone as WOFF
(zlib), about 2 MB of the 5 MB file, which every browser takes. It is the whole face, not
a subset: player names may use any character. It is built once per process, in a worker
thread because it takes about a second.

A fresh Debian has no emoji font either, so 📌 ✅ ⚠️ 🏁 were boxes too. The page gets the
few dozen emoji the bot's messages and the page use, cut from Noto Emoji (OFL 1.1) and
shipped in ``static/emoji.woff`` (``tests/emoji_font.py`` cuts it and names the emoji);
a machine's own colour emoji font goes first (``local()`` in ``static/style.css``).
"""

from __future__ import annotations

import asyncio
import functools
import io
from importlib import resources

from aiohttp import web
from fontTools.ttLib import TTFont

from charts import fonts

PATH = "/fonts/cjk.woff"
EMOJI_PATH = "/fonts/emoji.woff"
EMOJI = resources.files("playground") / "static" / "emoji.woff"
CACHE = "public, max-age=86400"  # the fonts change only with the package


@functools.cache
def woff() -> bytes:
    """The packaged CJK font (else the one the charts found) as one WOFF face."""
    source = fonts.packaged_font() or fonts.find_cjk_font()
    face = TTFont(str(source), fontNumber=0, lazy=True)  # fontNumber: a collection's first
    face.flavor = "woff"
    out = io.BytesIO()
    face.save(out)
    return out.getvalue()


async def serve(request: web.Request) -> web.Response:
    """The font, or 404 when there is none (the page then falls back to system fonts)."""
    try:
        body = await asyncio.to_thread(woff)
    except fonts.NoCJKFont as exc:
        raise web.HTTPNotFound(text=str(exc)) from exc
    return web.Response(body=body, content_type="font/woff", headers={"Cache-Control": CACHE})


async def serve_emoji(request: web.Request) -> web.Response:
    """The emoji font shipped with the package."""
    body = EMOJI.read_bytes()
    return web.Response(body=body, content_type="font/woff", headers={"Cache-Control": CACHE})
