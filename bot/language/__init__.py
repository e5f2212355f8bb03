"""Language: what people type and what the bot says.

The zh/en catalogues, refusals by message key, the deadline parser and its time zones,
and the numbers, yes-words and knob values read from a chat.
"""
