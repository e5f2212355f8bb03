"""Who is in the playground: an organiser, sixteen players, an anonymous admin, two groups.

Players carry Chinese and Latin names so the page shows how the bot writes both; each
has a username so ``@name`` works in commands, and each has "started" the bot, so the
bot can write to them privately as it can on Telegram after a user presses Start.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground.botapi import BotAPIServer

TOKEN = "1000001:PLAYGROUND"
BOT_ID = 1000001
BOT_USERNAME = "tourbot_bot"
GROUP = -1001000000001
DEMO_GROUP = -1001000000002
ORGANISER = 10
ANONYMOUS = 11  # an admin who posts as the group; Telegram hides who it is
FIRST_PLAYER = 101


@dataclass(frozen=True)
class Person:
    uid: int
    name: str
    username: str
    lang: str


PEOPLE = [
    Person(ORGANISER, "周老师", "zhou_organiser", "zh"),
    Person(ANONYMOUS, "匿名管理员", "anon_admin", "zh"),
    *(
        Person(FIRST_PLAYER + i, name, username, lang)
        for i, (name, username, lang) in enumerate(
            [
                ("张伟", "zhangwei", "zh"),
                ("王芳", "wangfang", "zh"),
                ("李娜", "lina", "zh"),
                ("刘洋", "liuyang", "zh"),
                ("陈静", "chenjing", "zh"),
                ("杨磊", "yanglei", "zh"),
                ("赵敏", "zhaomin", "zh"),
                ("黄勇", "huangyong", "zh"),
                ("Alice", "alice", "en"),
                ("Bruno", "bruno", "en"),
                ("Chloé", "chloe", "en"),
                ("David", "david", "en"),
                ("Emma", "emma", "en"),
                ("Felix", "felix", "en"),
                ("Grace", "grace", "en"),
                ("Hugo", "hugo", "en"),
            ]
        )
    ),
]


def populate(server: BotAPIServer) -> None:
    """A fresh world: everyone and the playground group."""
    for person in PEOPLE:
        add_person(server, person)
    everyone = list(server.world.users)
    server.add_chat(
        GROUP, "锄大地俱乐部 · Playground", admins=[ORGANISER, ANONYMOUS], members=everyone
    )


def new_demo_group(server: BotAPIServer) -> int:
    """A new group for each demo run, since a group has one active tournament at a time."""
    demos = [c for c in server.world.chats if c <= DEMO_GROUP]
    chat_id = min(demos, default=DEMO_GROUP + 1) - 1
    title = f"演示 · Demo {DEMO_GROUP - chat_id + 1}"
    server.add_chat(chat_id, title, admins=[ORGANISER, ANONYMOUS], members=list(server.world.users))
    return chat_id


def add_person(server: BotAPIServer, person: Person) -> None:
    """A user with a private chat open to the bot, in every group."""
    server.add_user(person.uid, person.name, username=person.username, language_code=person.lang)
    server.add_chat(person.uid, None, "private", members=[person.uid])
    for chat in server.world.chats.values():
        if chat.type != "private":
            chat.members.add(person.uid)


def new_player(server: BotAPIServer, name: str) -> Person:
    """ "Add player": the next free id, a username made from the id."""
    uid = max(max(server.world.users), FIRST_PLAYER - 1) + 1
    person = Person(uid, name, f"player{uid}", "zh")
    add_person(server, person)
    return person


def speaker_names(server: BotAPIServer) -> list[dict[str, object]]:
    """Everyone the page can speak as, organiser first, with their role."""
    group = server.world.chats[GROUP]
    people = []
    for uid in sorted(server.world.users):
        user = server.world.users[uid]
        role = "anonymous" if uid == ANONYMOUS else "admin" if uid in group.admins else "player"
        people.append({"uid": uid, "name": user["first_name"], "role": role})
    return people
