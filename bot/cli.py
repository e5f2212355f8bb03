"""``tourbot run``: start the bot with long polling (``python -m bot`` does the same);
``tourbot playground``: try it in the browser, without Telegram; ``tourbot gateway``,
``worker`` and ``scheduler``: the scale-out mode (``bot.transport.scaleout``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.config import Settings


def main(argv: list[str] | None = None) -> int:
    """Run a command; Ctrl-C ends any of them quietly, as the way to stop them, even
    before the bot's own handler stops it in order (while it imports, or starts)."""
    try:
        return command(argv)
    except KeyboardInterrupt:
        return 0  # stopped as asked


def command(argv: list[str] | None) -> int:
    from bot.transport.scaleout.cli import HELP as SCALEOUT

    parser = argparse.ArgumentParser(prog="tourbot", description="Tournaments in Telegram groups")
    commands = parser.add_subparsers(dest="command", metavar="command")
    commands.add_parser("run", help="long polling, one process (the default)")
    playground_help = "the bot against a local Telegram, in the browser"
    playground_parser = commands.add_parser(
        "playground", help=playground_help, description=playground_help
    )
    playground_parser.add_argument("--port", type=int, default=8000, help="the page's port")
    playground_parser.add_argument("--fresh", action="store_true", help="start over")
    for name, text in SCALEOUT.items():
        commands.add_parser(name, help=text, description=text)
    args = parser.parse_args(argv)
    command = args.command or "run"
    settings = Settings.from_env()
    if command == "playground":
        from playground.run import main as playground

        return playground(settings, args.port, args.fresh)
    if command in SCALEOUT:
        from bot.transport.scaleout.cli import main as scaleout

        return scaleout(command, settings)
    if not settings.bot_token:
        print(
            "tourbot: BOT_TOKEN is not set; put the token from @BotFather in .env or the "
            "environment (see .env.example), or try `tourbot playground` without Telegram.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.app import App
    from bot.application.types import StartupError

    try:
        asyncio.run(App(settings).run_forever())
    except StartupError as exc:
        why = "refused BOT_TOKEN" if exc.reason == "token" else "did not answer"
        print(
            f"tourbot: the Bot API at {settings.bot_api_url} {why}: {exc.detail}", file=sys.stderr
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
