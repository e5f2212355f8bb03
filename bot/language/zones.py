"""Time zones as organisers type them: ``asia/shanghai``, ``上海``, ``New York``, ``+8``.

IANA names match in any case; a few common cities match by name in Chinese or English
(and any IANA city by its last part: ``tokyo``); a UTC offset becomes the fixed zone
``Etc/GMT∓N``, whose sign POSIX inverts. Because that inversion misleads, an ``Etc/GMT±N``
typed by hand is refused with what it really means.

Inside a deadline a zone is written the way people write it (``Thursday 8:00 GMT``,
``4pm CET``, ``UTC+8``, ``北京时间``, ``东八区``): :func:`take_zone` finds it, and the
deadline is read in that zone and converted into the chat's.
"""

from __future__ import annotations

import re
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.language.deadline_spelling import cn_int

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


# Written zone abbreviations, as the fixed offsets they name (``EST`` is UTC-5 even in July).
_ZONE_OFFSETS = {
    "utc": 0, "gmt": 0, "wet": 0, "bst": 1, "cet": 1, "west": 1, "cest": 2, "eet": 2,
    "eest": 3, "msk": 3, "hkt": 8, "sgt": 8, "awst": 8, "jst": 9, "kst": 9, "aest": 10,
    "aedt": 11, "nzst": 12, "nzdt": 13, "edt": -4, "est": -5, "cdt": -5, "mdt": -6,
    "mst": -7, "pdt": -7, "pst": -8, "akst": -9, "hst": -10,
}  # fmt: skip
_ZONE_NAMES = {"et": "America/New_York", "pt": "America/Los_Angeles", "ct": "America/Chicago"}
_CN_ZONES = {
    **{k: v for k, v in CITIES.items() if not k.isascii()},
    "美东": "America/New_York", "美西": "America/Los_Angeles", "日本": "Asia/Tokyo",
    "韩国": "Asia/Seoul", "英国": "Europe/London", "欧洲中部": "Europe/Berlin",
}  # fmt: skip
_ZONE_RE = re.compile(
    r"(?:\b(?:utc|gmt)\s*(?P<sign>[+-])\s*(?P<hours>\d{1,2})(?::?00)?\b"
    r"|(?<=\d:\d\d)\s*(?P<sign2>[+-])(?P<hours2>\d{2}):?00\b"
    rf"|\b(?P<abbr>{'|'.join(_ZONE_OFFSETS)}|{'|'.join(_ZONE_NAMES)})\b"
    rf"|(?P<cn>{'|'.join(_CN_ZONES)})时间"
    r"|(?P<east>[东西])(?P<cnhours>[一二三四五六七八九十]{1,3}|\d{1,2})区(?:时间)?"
    r"|\(?\b(?P<iana>[a-z]+/[a-z_]+(?:/[a-z_]+)?)\b\)?)"
)


def _fixed(hours: int) -> ZoneInfo:
    if hours > 14:
        raise ZoneError("bad-tz", zone=f"UTC{hours:+d}")
    return ZoneInfo("UTC" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}")


def take_zone(text: str) -> tuple[ZoneInfo | None, str, str]:
    """A zone a deadline is written in (``4pm CET``, ``UTC+8``, ``北京时间``, ``东八区``):
    the zone, the label it was written as, and the text without it. Lower-case,
    normalised text; two zones, or one that is not a zone, are :class:`ZoneError`."""
    found = list(_ZONE_RE.finditer(text))
    if not found:
        return None, "", text
    if len(found) > 1:
        raise ZoneError("bad-tz", zone=" ".join(m.group(0) for m in found))
    m = found[0]
    rest = text[: m.start()] + " " + text[m.end() :]
    label = m.group(0).strip("() ").upper()
    if m.group("sign") or m.group("sign2"):
        sign = -1 if (m.group("sign") or m.group("sign2")) == "-" else 1
        return _fixed(sign * int(m.group("hours") or m.group("hours2"))), label, rest
    if m.group("abbr"):
        abbr = m.group("abbr")
        if abbr in _ZONE_NAMES:
            return ZoneInfo(_ZONE_NAMES[abbr]), label, rest
        return _fixed(_ZONE_OFFSETS[abbr]), label, rest
    if m.group("cn"):
        return ZoneInfo(_CN_ZONES[m.group("cn")]), m.group(0), rest
    if m.group("east"):
        hours = cn_int(m.group("cnhours"))
        return _fixed(hours if m.group("east") == "东" else -hours), m.group(0), rest
    try:
        zone = ZoneInfo(find_zone(m.group("iana")))
    except ZoneInfoNotFoundError:
        raise ZoneError("bad-tz", zone=m.group("iana")) from None
    return zone, zone.key, rest
