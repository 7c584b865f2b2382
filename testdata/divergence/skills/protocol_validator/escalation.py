"""Escalation policy of the protocol validator."""

MAX_RETRIES = 3


def escalate_handback(handback):
    """Decide whether a HANDBACK must go up to a senior agent."""
    quality = handback["metrics"]["quality"]
    if quality < 0.5:
        return True
    if handback["retry_count"] >= MAX_RETRIES:
        return True
    if handback["status"] in ("blocked", "escalate"):
        return True
    return False
