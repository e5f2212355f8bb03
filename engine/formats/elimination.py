"""What every elimination format shares: settling a tie at the top of a final.

Seed 001 §八.4: in earlier rounds a tie is settled by a card flip (翻牌); in the final a
tie for first is played off (加时赛, the highest score wins). An extra game needs a table
the game allows: the tied players alone when the game seats that many, otherwise the whole
final table plays it again and only the tied players' scores count (two tied at a Big Two
final of four: the four play one more game, the better of the two wins). Only when not even
that table can be seated (players forfeited or withdrew since) does a flip decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.model import PlayerId


def extra_table(
    tied: Sequence[PlayerId],
    final: Sequence[PlayerId],
    sizes: Sequence[int],
    sides: Sequence[Sequence[PlayerId]] = (),
) -> tuple[PlayerId, ...] | None:
    """Who sits the extra game for ``tied`` (a tie at the top of the ``final`` table):
    the tied alone, else the whole final table, else ``None`` (a flip decides). Partners
    (one of ``sides``, the 2v2 games) always score alike: no game can part them."""
    if any(set(tied) <= set(side) for side in sides):
        return None
    if len(tied) in sizes:
        return tuple(tied)
    if set(tied) <= set(final) and len(final) in sizes:
        return tuple(final)
    return None
