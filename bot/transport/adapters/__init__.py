"""Thin transport adapters: aiogram (default) and python-telegram-bot."""
