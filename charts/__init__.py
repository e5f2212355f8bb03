"""tourbot charts package."""
