"""The messages a busy group gets most, as plain Bot API parameters, for both adapters.

A 👍 on each typed ``/join``, the count edited on the sign-up message, a report's
announcement, a confirmation: nearly everything the sender delivers is a text, an
edit of one, or a reaction. Through the libraries' typed calls each one built its
request from models and read Telegram's answer into a whole ``Message`` model, only to
take its id: that cost more than the HTTP exchange itself (measured with the local Bot
API server: aiogram 0.48 ms of CPU a message, 0.20 with the parameters sent as JSON and
the answer read as JSON; PTB 1.02 against 0.79). So these go as plain parameters
through each library's own request path (the same session, the same error classes);
pictures and files keep the typed calls.
"""

from __future__ import annotations

from typing import Any

from bot.application.types import Buttons, Delivered, Outgoing, button_kind

METHODS = {"text": "sendMessage", "edit": "editMessageText", "react": "setMessageReaction"}


def button(label: str, data: str) -> dict[str, Any]:
    """One inline button as the Bot API spells it: callback data, a link, or a Mini App."""
    kind, value = button_kind(data)
    if kind == "url":
        return {"text": label, "url": value}
    if kind == "web_app":
        return {"text": label, "web_app": {"url": value}}
    return {"text": label, "callback_data": value}


def markup(buttons: Buttons | None) -> dict[str, Any] | None:
    """Inline buttons as the Bot API spells them (the typed calls read the same)."""
    if not buttons:
        return None
    return {"inline_keyboard": [[button(label, data) for label, data in row] for row in buttons]}


def plain_call(m: Outgoing) -> tuple[str, dict[str, Any]] | None:
    """The method and parameters for ``m``, or None when it is not one of :data:`METHODS`.

    An edit without buttons sends no ``reply_markup``, which takes the old ones away
    (as the typed calls did)."""
    method = METHODS.get(m.kind)
    if method is None:
        return None
    params: dict[str, Any] = {"chat_id": m.chat_id}
    if m.kind == "react":
        params["message_id"] = m.edit_message_id or 0
        params["reaction"] = [{"type": "emoji", "emoji": m.text}]
        return method, params
    if m.kind == "edit":
        params["message_id"] = m.edit_message_id
    elif m.thread_id:
        params["message_thread_id"] = m.thread_id
    if m.reply_to:  # the message may be gone meanwhile: say it anyway
        params["reply_parameters"] = {"message_id": m.reply_to, "allow_sending_without_reply": True}
    params["text"] = m.text
    keyboard = markup(m.buttons)
    if keyboard is not None:
        params["reply_markup"] = keyboard
    return method, params


def message_id_of(result: Any, m: Outgoing) -> Delivered:
    """The id Telegram answered with: the message sent or edited; for a reaction (and an
    edit answered ``true``) the message it was on."""
    if isinstance(result, dict) and isinstance(result.get("message_id"), int):
        return Delivered(int(result["message_id"]))
    return Delivered(m.edit_message_id or 0)
