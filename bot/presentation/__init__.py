"""Presentation: the standings' read model in words and pictures.

One view of where everyone stands (``board``) rendered as text, as a chart, as the
pinned live message, and as CSV cells a spreadsheet will not execute.
"""
