"""QR codes for links that leave the chat (a score slip's report link, the live page)."""

from __future__ import annotations

import io

import segno


def qr_png(link: str, scale: int = 8) -> bytes:
    """A PNG of ``link`` with the standard quiet zone; error correction M survives a
    crease or a coffee ring on a slip."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
