"""What leaves the chat for paper, calendars and the hall's screen: pure rendering of
plain data (no database, no Telegram), so each piece can be tested on its own."""
