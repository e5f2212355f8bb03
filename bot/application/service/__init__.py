"""State changes of an event, between the handlers and the repository.

Handlers read the chat's words and write the replies; what a result, a confirmation, a
correction, a forfeit, a penalty or an undo changes is coded here once, with its typed
audit entry (:mod:`bot.application.service.audit`) written in the same transaction.
"""
