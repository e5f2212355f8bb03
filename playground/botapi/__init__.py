"""A local Telegram Bot API server, for end-to-end tests and ``tourbot playground``.

The bot under test talks real Bot API HTTP to it, through unmodified aiogram or
python-telegram-bot clients; the test plays the users and reads what the bot sent.

Start and point a client at it::

    server = BotAPIServer(token="123456:TEST", bot_id=123456, bot_username="tourbot_bot",
                          *, bot_first_name="TourBot", privacy_mode=True, clock=time.time)
    await server.start()            # 127.0.0.1, random free port; or `async with server:`
    server.url                      # "http://127.0.0.1:PORT"
    # aiogram: Bot(token, session=AiohttpSession(api=TelegramAPIServer.from_base(server.url)))
    # PTB:     telegram.Bot(token, base_url=server.url + "/bot",
    #                       base_file_url=server.url + "/file/bot")
    await server.stop()             # pending long polls return [] first
    server.add_routes(app)          # or serve it from your own aiohttp app (the playground)

Set up the world (synchronous)::

    server.add_user(uid, first_name, last_name=None, username=None, language_code="zh")
    server.add_chat(chat_id, title="...", type="supergroup", admins=[uid, ...],
                    is_forum=False, *, bot_is_admin=True, username=None, members=None)
        # admins[0] is the creator. Unknown users get the placeholder name "User<uid>".

Act as users (synchronous; each queues an update for getUpdates)::

    msg = server.user_says(chat_id, uid, "/join", thread_id=None, sender_chat_id=None,
                           *, reply_to=None)        # -> the Message dict
    cb_id = server.user_presses(chat_id, uid, message_id, data, *, inaccessible=False)
                               # -> callback query id; on a message over a day old (or
                               #    inaccessible=True) it carries an InaccessibleMessage
    server.migrate_chat(old_id, new_id, *, by=None)  # group -> supergroup upgrade
    server.take_updates()      # -> queued updates, removed: POST them to server.webhook's
                               #    url with its secret_token, as Telegram's webhook does

``user_says(uid, uid, ...)`` writes in the user's private chat. ``sender_chat_id=chat_id``
is an anonymous admin (``from`` = GroupAnonymousBot). With ``privacy_mode=True`` (the
default, as on Telegram) a bot that is *not* an admin of a group only receives commands
for it, replies to its messages and mentions; the message is still stored and returned.
``user_presses`` refuses data that is not on one of the message's buttons.

Read what the bot did::

    sent = await server.wait_for(predicate_or_substring, timeout=10.0)  # -> SentMessage
    server.skip_outputs()                     # consume everything sent so far
    await server.wait_idle(quiet=0.5, timeout=10.0)
    server.outbox(chat_id=None)               # -> list[SentMessage], send order
    server.answered_callbacks                 # dict[query id, CallbackAnswer]
    server.reactions                          # {(chat id, message id): [emoji]}
    await server.wait_for_callback_answer(cb_id, timeout=10.0)
    server.calls, server.calls_to("sendMessage")  # every request: Call(method, params, ...)
    server.unknown_methods                    # names of methods the server does not know
    server.my_commands                        # {(scope key, language_code): [commands]}
    server.fail_next(method, status=429, retry_after=1, times=1, description=None,
                     *, html=False, delivered=False, chat_id=None)
        # html: a proxy's HTML page instead of JSON; delivered: done, then the error;
        # chat_id: only calls for that chat fail
    server.clear_failures()

Make Telegram say no, as it does (each with Telegram's own code and description)::

    server.block_bot(uid, blocked=True)   # 403 "bot was blocked by the user" + my_chat_member
    server.deactivate_user(uid)           # 403 "user is deactivated"
    server.restrict_chat(chat_id, *, text=None, media=None, reactions=None)
        # what members may do; a bot that is no admin gets 400 "not enough rights to send
        # text messages / photos / documents to the chat", "REACTION_INVALID" (no update)
    server.set_bot_admin(chat_id, admin, rights=None, *, by=None)  # + my_chat_member
    server.delete_message(chat_id, message_id)  # then "message to edit not found"
    server.close_topic(chat_id, thread_id, closed=True)  # "TOPIC_CLOSED" for a non-admin bot
    server.token = "..."                  # every call 401 "Unauthorized" (a revoked token)

``SentMessage`` (``records.py``): ``method, chat_id, message_id, text, caption,
reply_markup, photo, document, filename, thread_id, parse_mode, sent_text,
reply_to_message_id, edits, deleted, pinned``; ``body`` (text or caption), ``buttons``
(inline buttons, flattened) and ``button(label)`` (first button whose text contains it),
e.g. ``server.user_presses(chat, uid, sent.message_id, sent.button("Join")["callback_data"])``.

``wait_for`` semantics: the server keeps one list of outputs, where every send and every
edit is an entry (an edit re-lists the same :class:`SentMessage`). ``wait_for`` scans the
entries after its cursor in order, returns the first whose *current* state matches, and
moves the cursor just past it, waiting for new entries until ``timeout``. A string
matches when it occurs in ``SentMessage.body`` (text or caption). On timeout it raises
``TimeoutError`` that lists the unconsumed outputs.

``wait_idle`` returns once every queued update has been handed to a getUpdates call and
no other request has arrived for ``quiet`` seconds.

Behaviour checked like Telegram: unknown chat (400 "Bad Request: chat not found"), text
over 4096 / caption over 1024 UTF-16 units, empty text, HTML ``parse_mode`` (tags are
stripped from ``SentMessage.text``; unsupported or unbalanced tags are refused), inline
keyboards (``callback_data`` 1-64 bytes; ``web_app`` buttons in private chats only, on
HTTPS or a local address), a photo or document sent again by the ``file_id`` its first
sending answered with (an id it never gave: "wrong file identifier/HTTP URL specified";
a photo's as a document: "can't use file of type Photo as Document"; a document keeps
its name), "message is not modified", edits without
``reply_markup`` drop the keyboard, unknown forum topic, photos must be PNG/JPEG,
callback answers at most once and within 15 seconds ("query is too old…"), sends to a
migrated group (400 with ``migrate_to_chat_id``), a private chat the user never started
(403 "bot can't initiate conversation with a user"), a newer getUpdates ends an older
one with 409, wrong token 401, unknown method 404. Markdown parse modes are not parsed.

Mini Apps, Telegram's side (``webapp``): ``webapp.init_data(token, user, auth_date,
start_param=…)`` is launch data signed as Telegram signs it, ``webapp.launch_url(url,
data, theme)`` the address a client opens, and the server serves a stand-in for
Telegram's ``telegram-web-app.js`` at ``/js/telegram-web-app.js``.

For the playground: ``server.world`` is the live users and chats (every stored message);
``server.snapshot()`` is all of it, and what the bot sent, as JSON, and
``server.restore(state)`` loads that into a new server (``snapshot.py``).

Modules: ``server`` (HTTP and this API), ``world`` (users, chats, Telegram objects),
``updates`` (getUpdates queue), ``methods`` (the Bot API methods), ``outbox`` (what the
bot sent), ``wire`` (request decoding and Telegram's content checks), ``records``.
Supported methods: getMe, getUpdates, deleteWebhook, getWebhookInfo, sendMessage,
sendPhoto, sendDocument, sendChatAction, editMessageText, editMessageCaption,
editMessageReplyMarkup, editMessageMedia (a photo), deleteMessage, setMessageReaction,
pinChatMessage (needs the can_pin_messages right: ``add_chat(..., bot_rights=())`` makes
an admin bot without it), answerCallbackQuery, getChat,
getChatMember, getChatAdministrators, setMyCommands, getMyCommands, getFile.
"""

from playground.botapi.records import Call, CallbackAnswer, Edit, SentMessage, Upload
from playground.botapi.server import BotAPIServer

__all__ = ["BotAPIServer", "Call", "CallbackAnswer", "Edit", "SentMessage", "Upload"]
