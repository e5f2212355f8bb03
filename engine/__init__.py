"""tourbot's rules engine: games, formats, draws, seating and standings.

Pure and deterministic: no I/O, no clock, no global randomness. Everything random is
derived from a seed that the bot commits to before a draw (see ``engine.draw``).
"""
