"""tourbot bot package."""
