"""Time zones as organisers type them: ``asia/shanghai``, ``上海``, ``New York``, ``+8``.

IANA names match in any case; a few common cities match by name in Chinese or English
(and any IANA city by its last part: ``tokyo``); a UTC offset becomes the fixed zone
``Etc/GMT∓N``, whose sign POSIX inverts. Because that inversion misleads, an ``Etc/GMT±N``
typed by hand is refused with what it really means.
"""

from __future__ import annotations

import re
from functools import cache
from zoneinfo import available_timezones

CITIES = {
    "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "广州": "Asia/Shanghai",
    "深圳": "Asia/Shanghai", "东莞": "Asia/Shanghai", "重庆": "Asia/Shanghai",
    "中国": "Asia/Shanghai", "beijing": "Asia/Shanghai", "china": "Asia/Shanghai",
    "香港": "Asia/Hong_Kong", "hongkong": "Asia/Hong_Kong", "澳门": "Asia/Macau",
    "台北": "Asia/Taipei", "臺北": "Asia/Taipei", "台湾": "Asia/Taipei", "taipei": "Asia/Taipei",
    "新加坡": "Asia/Singapore", "东京": "Asia/Tokyo", "首尔": "Asia/Seoul",
    "纽约": "America/New_York", "newyork": "America/New_York", "nyc": "America/New_York",
    "伦敦": "Europe/London", "london": "Europe/London", "uk": "Europe/London",
    "洛杉矶": "America/Los_Angeles", "悉尼": "Australia/Sydney", "巴黎": "Europe/Paris",
    "utc": "UTC", "gmt": "UTC",
}  # fmt: skip
_OFFSET = re.compile(r"(?:utc|gmt)?\s*(?P<sign>[+-])\s*(?P<hours>\d{1,2})(?::?00)?")
_ETC = re.compile(r"etc/gmt(?P<sign>[+-])(?P<hours>\d{1,2})")


class ZoneError(Exception):
    """``code``: ``bad-tz`` (unknown) or ``etc-tz`` (an inverted-sign Etc/GMT zone;
    ``means`` is the offset it really is, ``write`` what to type instead)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


@cache
def _by_lower() -> dict[str, str]:
    zones = sorted(available_timezones())
    found = {z.lower(): z for z in zones}
    for z in zones:  # a city by its last part: "tokyo", "new_york"
        found.setdefault(z.rsplit("/", 1)[-1].lower().replace("_", ""), z)
    return found


def find_zone(text: str) -> str:
    """The IANA key for what the organiser typed, or :class:`ZoneError`."""
    raw = text.strip()
    key = raw.lower().replace(" ", "")
    etc = _ETC.fullmatch(key)
    if etc:
        sign = "-" if etc.group("sign") == "+" else "+"
        raise ZoneError(
            "etc-tz",
            zone=raw,
            means=f"UTC{sign}{etc.group('hours')}",
            write=f"{sign}{etc.group('hours')}",
        )
    offset = _OFFSET.fullmatch(key)
    if offset:
        hours = int(offset.group("hours"))
        if hours > 14:
            raise ZoneError("bad-tz", zone=raw)
        if hours == 0:
            return "UTC"
        return f"Etc/GMT{'-' if offset.group('sign') == '+' else '+'}{hours}"
    if key in CITIES:
        return CITIES[key]
    found = _by_lower().get(key) or _by_lower().get(key.replace("_", ""))
    if found is None:
        raise ZoneError("bad-tz", zone=raw or "—")
    return found
