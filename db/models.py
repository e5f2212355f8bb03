"""Tables, as typed SQLAlchemy 2 models.

The database stores facts (who joined, who sat where, what was reported, who was
penalised); the engine derives rounds and standings from them. Seats and scores are
small JSON lists because they are always read and written with their table.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from db.status import (
    EventStatus,
    OutboxStatus,
    PenaltyKind,
    PlayerStatus,
    RoundStatus,
    TableState,
)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes stored as UTC. SQLite keeps no zone and hands back naive values;
    without this a deadline of 18:00 in Shanghai would come back eight hours late."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012


def _now() -> Mapped[datetime]:
    return mapped_column(UTCDateTime(), server_default=func.now())


class Chat(Base):
    """Per-chat settings: language and time zone chosen with /lang and /tz."""

    __tablename__ = "chats"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    lang: Mapped[str | None] = mapped_column(String(8))
    tz: Mapped[str | None] = mapped_column(String(64))


class Grant(Base):
    """A user an organiser made an organiser with /grant."""

    __tablename__ = "grants"
    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    granted_by: Mapped[int] = mapped_column(BigInteger)


class Tournament(Base):
    """One event in a chat (or forum topic). ``seeds`` holds one seed per draw, in order."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    thread_id: Mapped[int] = mapped_column(BigInteger, default=0)  # 0: not in a topic
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default=EventStatus.SIGNUP)
    seed: Mapped[str] = mapped_column(String(64))
    creator_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = _now()
    # /deadline signup: sign-up closes and the lot is drawn at this moment.
    signup_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Bumped by every audited change (``Ctx.audit``), in the same transaction: what is
    # derived from the event (standings, their picture) is cached per version.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # When the pinned live standings were last posted or edited (None: not yet).
    live_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # When its picture was last drawn (None: the live message is text); at most once a minute.
    live_picture_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A result confirmed soon after the last refresh is shown by one refresh at this
    # moment, with any others that come meanwhile (None: the message is up to date).
    live_due: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Whether the bot could pin it (checked at the draw; without the right it says so once).
    live_pin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The live standings' and the sign-up message's ids, kept here once the outbox rows
    # that sent them are pruned (``db.retention``): their edits name them (None: found
    # through the outbox, by tag).
    live_message_id: Mapped[int | None] = mapped_column(BigInteger)
    signup_message_id: Mapped[int | None] = mapped_column(BigInteger)
    players: Mapped[list[Player]] = relationship(
        back_populates="tournament", order_by="Player.id", lazy="selectin"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="tournament", order_by="Round.number", lazy="selectin"
    )
    penalties: Mapped[list[PenaltyRow]] = relationship(order_by="PenaltyRow.id", lazy="selectin")


class Player(Base):
    """A sign-up. ``status``: active, left (before the draw), removed (dq / withdrew)."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(200))
    username: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default=PlayerStatus.ACTIVE)
    # Who this player asked to team up with (/join @partner); a team or pair stands when
    # every member names the others (``bot.application.tournament.given_teams``).
    partners: Mapped[list[Any]] = mapped_column(default=list)
    # Swiss rounds seat players of one department apart when they can (/dept).
    department: Mapped[str | None] = mapped_column(String(64))
    # A late entrant's first round (0: signed up before the draw); the round after which
    # a player dropped out (None: still in); a waiting player's ticket in the queue
    # beyond the cap (None: not waiting). See bot/application/service/people.py.
    entered_round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    dropped_round: Mapped[int | None] = mapped_column(Integer)
    queued: Mapped[int | None] = mapped_column(BigInteger)
    tournament: Mapped[Tournament] = relationship(back_populates="players")


class Round(Base):
    """A drawn round. ``status``: drawn (tables known), open (playing), closed."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(32), default="")
    seed_label: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default=RoundStatus.DRAWN)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # When the deadline was last set: reminders due before it are not sent (they would be
    # late), and a round shorter than every reminder offset gets the last call.
    deadline_set_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # While set, players check in (/here) until this moment; then no-shows forfeit and it
    # is cleared, so a restart does not rule twice (docs/rules/deadlines.md#no-show).
    checkin_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    byes: Mapped[list[Any]] = mapped_column(default=list)
    notes: Mapped[list[Any]] = mapped_column(default=list)
    tournament: Mapped[Tournament] = relationship(back_populates="rounds")
    tables: Mapped[list[TableRow]] = relationship(
        back_populates="round", order_by="TableRow.number", lazy="selectin"
    )


class TableRow(Base):
    """A table of a round: ``seats`` are user ids in seat order A, B, C, D."""

    __tablename__ = "tables"
    __table_args__ = (
        UniqueConstraint("round_id", "number"),
        # Whether a round still has an unsettled table: a look at its first few.
        Index("ix_tables_round_status", "round_id", "status"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[Any]] = mapped_column()
    status: Mapped[str] = mapped_column(String(16), default=TableState.PENDING)
    forfeited: Mapped[list[Any]] = mapped_column(default=list)
    present: Mapped[list[Any]] = mapped_column(default=list)  # checked in with /here
    # /deadline <table> <phrase>: this table's own, later deadline (None: the round's).
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    deadline_set_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    round: Mapped[Round] = relationship(back_populates="tables")
    reports: Mapped[list[Report]] = relationship(order_by="Report.id", lazy="selectin")


class Seat(Base):
    """Who sits at which table of a round: an index of ``TableRow.seats``, written with
    the table (``db.repo``), so that finding a player's table (a bare ``/confirm``) is one
    index lookup, not a search of every table's JSON list. Seats never change once
    drawn; the list stays the record (it keeps the seat order)."""

    __tablename__ = "seats"
    __table_args__ = (Index("ix_seats_round_user", "round_id", "user_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))


class Report(Base):
    """A reported result. At most one *live* report per table: ``live`` is True for the
    current one and NULL for history, and (table_id, live) is unique, so two captains
    reporting at the same instant cannot both be kept, whatever the database."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("table_id", "live"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    scores: Mapped[list[Any]] = mapped_column()
    status: Mapped[str] = mapped_column(String(16))  # pending, confirmed, disputed
    live: Mapped[bool | None] = mapped_column(Boolean, default=True)
    reporter_id: Mapped[int] = mapped_column(BigInteger)
    confirmed_by: Mapped[int | None] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = _now()
    # Its message (Confirm / Dispute), kept here once its outbox row is pruned, as the
    # tournament keeps the live standings'.
    message_id: Mapped[int | None] = mapped_column(BigInteger)


class PenaltyRow(Base):
    """A deduction recorded with /penalty (points positive, 0.5 steps)."""

    __tablename__ = "penalties"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    round_number: Mapped[int] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Numeric(10, 1))
    # points, cards (0.5 a card) or ladder (warning → −1 → disqualification)
    kind: Mapped[str] = mapped_column(
        String(16), default=PenaltyKind.POINTS, server_default=PenaltyKind.POINTS.value
    )
    reason: Mapped[str] = mapped_column(Text, default="")
    by_id: Mapped[int] = mapped_column(BigInteger)


class Season(Base):
    """A season of a chat (/season start): its events are the chat's tournaments created
    after it started (ids above ``since_event``); ``scoring`` turns places into season
    points (``10/7/5/3/1``) or is ``rating`` (rating points gained)."""

    __tablename__ = "seasons"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    name: Mapped[str] = mapped_column(String(100))
    scoring: Mapped[str] = mapped_column(String(200))
    since_event: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    started_by: Mapped[int] = mapped_column(BigInteger)


class EventRating(Base):
    """A player's rating around one rated event of a chat's game: ``before`` it (after
    their previous event; 1500 and 0 hands at first) and what the event's rated hands
    ``moved`` it, over how many ``hands`` (docs/rules/ratings.md#kept). Written with the
    result that moves it; a correction replays from its event on, starting from these
    snapshots, never from the first event."""

    __tablename__ = "event_ratings"
    __table_args__ = (
        # A player's events in a chat's game, oldest first (/me's graph, the rating
        # before an event).
        Index("ix_event_ratings_player", "chat_id", "game", "user_id", "tournament_id"),
    )
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    before: Mapped[float] = mapped_column(Float)
    before_games: Mapped[int] = mapped_column(Integer)
    moved: Mapped[float] = mapped_column(Float, default=0.0)
    hands: Mapped[int] = mapped_column(Integer, default=0)


class PlayerRating(Base):
    """A player's rating for a game in a chat now: after ``event``, the last rated event
    that moved it, where they were called ``name``."""

    __tablename__ = "ratings"
    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    value: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    event: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))


class Placing(Base):
    """Where one entrant of a finished event finished, stored once at the finish: the
    place (None: not on the final ranking) among ``entries`` lines, the line's status
    and points, and the season points it gave in the season it counts in. /me, /season
    and their pictures and CSV read these, never ranking a past event again."""

    __tablename__ = "event_results"
    __table_args__ = (
        Index("ix_event_results_player", "chat_id", "user_id"),
        Index("ix_event_results_season", "season_id"),
    )
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(200))
    place: Mapped[int | None] = mapped_column(Integer)
    entries: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    points: Mapped[Decimal] = mapped_column(Numeric(16, 4))
    season_id: Mapped[int | None] = mapped_column(Integer)
    season_points: Mapped[Decimal | None] = mapped_column(Numeric(16, 4))


class AuditEntry(Base):
    """Who changed what, when: written in the same transaction as the change."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = _now()
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    tournament_id: Mapped[int | None] = mapped_column(Integer)
    actor_id: Mapped[int] = mapped_column(BigInteger)
    update_id: Mapped[int | None] = mapped_column(BigInteger)
    action: Mapped[str] = mapped_column(String(32))
    old: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    new: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class FiredTimer(Base):
    """A timer that has run (a deadline, a reminder, a check-in cut-off, a sign-up
    deadline), committed with its work: a restart never runs it again, even while a
    disputed table keeps the round open. Keyed by its moment (to the second) too, so a
    deadline moved later is a new timer. ``round_number`` is 0 for the sign-up deadline."""

    __tablename__ = "fired_timers"
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    round_number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    due: Mapped[datetime] = mapped_column(UTCDateTime(), primary_key=True)
    at: Mapped[datetime] = _now()


class PrivateChat(Base):
    """A user who has opened a private chat with the bot: only they can get private
    reminders (a bot may not write first). ``gone`` says why they can no longer be
    written to (``blocked``, ``deactivated``: Telegram refused it), until they write to
    the bot again; ``name`` is how they were called then (an organiser a referee call
    reached is named to the caller)."""

    __tablename__ = "private_chats"
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = _now()
    name: Mapped[str | None] = mapped_column(String(200))
    gone: Mapped[str | None] = mapped_column(String(16))


class DeliveryNotice(Base):
    """Telegram refuses the bot something in a chat (``reason``: a right it lacks, a
    closed topic; ``bot.transport.refusals``) and the organisers were told at ``at``.
    While the row stands they are not told again; it goes when that works again."""

    __tablename__ = "delivery_notices"
    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    reason: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[datetime] = _now()


class ProcessedUpdate(Base):
    """Telegram update ids already handled: an update redelivered after a crash is skipped."""

    __tablename__ = "processed_updates"
    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = _now()


OUTBOX_WAITING = f"status IN ('{OutboxStatus.QUEUED}', '{OutboxStatus.SENDING}')"
OUTBOX_TAGGED = "tag IS NOT NULL"
OUTBOX_DELIVERED_FILE = "file_id IS NOT NULL"


class OutboxMessage(Base):
    """A reply committed with the change that caused it; the sender delivers it later.

    Because replies are rows of the same transaction, a crash can never lose a reply to
    an acknowledged change, nor send one for a change that was rolled back."""

    __tablename__ = "outbox"
    __table_args__ = (
        # What the sender reads each pass: only waiting rows, in its order (lanes, then
        # id). Rows sent leave it, so it stays small however long the history; and the
        # order makes PostgreSQL walk it (marking the dead versions of rows just sent to
        # skip them) rather than fetch every dead version again until a vacuum.
        Index(
            "ix_outbox_waiting",
            "chat_id",
            "broadcast",
            "id",
            postgresql_where=text(OUTBOX_WAITING),
            sqlite_where=text(OUTBOX_WAITING),
        ),
        # The few messages later edits name (the sign-up count, the live standings).
        Index(
            "ix_outbox_tagged",
            "chat_id",
            "tag",
            postgresql_where=text(OUTBOX_TAGGED),
            sqlite_where=text(OUTBOX_TAGGED),
        ),
        # Pictures and files Telegram holds already, by what they are.
        Index(
            "ix_outbox_file",
            "file_digest",
            postgresql_where=text(OUTBOX_DELIVERED_FILE),
            sqlite_where=text(OUTBOX_DELIVERED_FILE),
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(
        String(16)
    )  # text, photo, document, edit(_caption, _media), react
    text: Mapped[str] = mapped_column(Text, default="")
    buttons: Mapped[list[Any] | None] = mapped_column(JSON)
    # The picture or file until Telegram took it; then its ``file_id`` alone is kept, and
    # the same picture queued again (``file_digest``: what it is) is sent by that id.
    file: Mapped[bytes | None] = mapped_column(LargeBinary)
    filename: Mapped[str | None] = mapped_column(String(100))
    file_id: Mapped[str | None] = mapped_column(String(255))
    file_digest: Mapped[str | None] = mapped_column(String(64))
    edit_message_id: Mapped[int | None] = mapped_column(BigInteger)
    # Announcements and count/standings edits wait behind replies to one person.
    broadcast: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    tag: Mapped[str | None] = mapped_column(String(64))  # names a message for later edits
    edit_tag: Mapped[str | None] = mapped_column(String(64))  # edits the latest ``tag`` one
    pin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # What is said instead when Telegram refuses this message for good (a reaction's
    # words, a private message said in the group): ``Outgoing.fallback``.
    fallback: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=OutboxStatus.QUEUED)
    # While ``status`` is "sending": until when the sender that claimed it owns it. A row
    # whose lease ran out (its sender died mid-send) is claimed and sent again.
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = _now()


class SendBudget(Base):
    """A chat's sending window as its scale-out sender last wrote it down (key
    ``chat:<id>``, see ``bot.transport.scaleout.budget``): ``tokens`` messages sent in the minute
    before ``at``, and Telegram's last 429 until ``blocked_until`` (epoch seconds). A
    sender that takes the chat's part over starts from it."""

    __tablename__ = "send_budget"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
    blocked_until: Mapped[float] = mapped_column(Float, default=0.0)
