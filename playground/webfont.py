"""The pictures' CJK font, served to the page as a web font.

A browser draws a page's text with the machine's fonts, and a fresh Debian has no CJK
one: every Chinese word of the playground would be a row of boxes. The package already
carries WenQuanYi Micro Hei for the charts (:mod:`charts.fonts`), so the page gets the
same face from ``/fonts/cjk.woff`` (``@font-face`` in ``static/style.css``), and the chat
looks like its pictures.

The file is a collection (``.ttc``) of two faces; its first face is saved alone as WOFF
(zlib), about 2 MB of the 5 MB file, which every browser takes. It is the whole face, not
a subset: player names may use any character. It is built once per process, in a worker
thread because it takes about a second.
"""

from __future__ import annotations

import asyncio
import functools
import io

from aiohttp import web
from fontTools.ttLib import TTFont

from charts import fonts

PATH = "/fonts/cjk.woff"
CACHE = "public, max-age=86400"  # the font changes only with the package


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
