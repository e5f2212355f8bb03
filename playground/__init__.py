"""``tourbot playground``: the real bot in a local group chat in the browser.

``botapi`` is a faithful Bot API server (the end-to-end tests use it too); ``run`` starts
it, the unchanged bot (talking HTTP to it through ``BOT_API_URL``) and ``web``, the page
where one person plays the organiser and the players. Nothing in ``bot/`` knows.
"""
