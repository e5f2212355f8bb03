"""Use-cases, one module per thing users do; ``bot.application.routes`` says which
command, button and timer each one answers."""
