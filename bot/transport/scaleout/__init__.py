"""Scale-out mode: webhook gateways, workers and one scheduler on NATS JetStream and
PostgreSQL (``tourbot gateway``, ``tourbot worker``, ``tourbot scheduler``).

``bus`` is the JetStream layout they share; ``budget`` the sending budget and the
outbox sender workers share; ``process`` what every process does at start and stop.
"""
