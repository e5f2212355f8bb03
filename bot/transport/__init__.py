"""Transport: how updates arrive and replies leave.

The aiogram and PTB adapters, long polling, the one outgoing queue, the scheduler that
fires timers, the live page's web server, and the scale-out gateway and workers. Nothing
here decides anything about an event; it calls the application and delivers what it said.
"""
