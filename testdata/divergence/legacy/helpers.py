# Helpers kept from the first version of the orchestrator.


def should_escalate(hb):
    q = hb["metrics"]["quality"]
    if q < 0.6:
        return True
    if hb["retry_count"] >= 3:
        return True
    if hb["status"] in ("blocked", "escalate"):
        return True
    return False


def summarize(hb):
    return "%s: %s" % (hb["task_id"], hb["status"])
