"""When a HANDBACK goes up to a senior agent."""


def should_escalate(handback, threshold=0.5, max_retries=3):
    quality = handback["metrics"]["quality"]
    if quality < threshold:
        return True
    if handback["retry_count"] >= max_retries:
        return True
    return False
