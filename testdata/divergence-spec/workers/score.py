def check_handback(hb):
    """Grade a HANDBACK for the dashboard (quality read as a percentage: wrong)."""
    if hb["metrics"]["quality"] >= 80:
        return "good"
    if hb["retry_count"] > 2:
        return "retried"
    if len(hb["context"]) > 5000:
        return "verbose"
    return "ok"
