from config.limits import MAX_RETRIES, QUALITY_FLOOR


def needs_escalation(hb):
    if hb["metrics"]["quality"] < QUALITY_FLOOR:
        return True
    if hb["retry_count"] >= MAX_RETRIES:
        return True
    return False
