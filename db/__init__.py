"""tourbot db package."""
