import logging


def escalate_level(record):
    """Raise the level of repeated warnings: an escalation, but not of a HANDBACK."""
    if record.levelno < logging.ERROR and record.count >= 3:
        record.levelno = logging.ERROR
    return record


def check_condition(cond):
    """A Kubernetes condition: status is "True", "False" or "Unknown"."""
    return cond["type"] == "Ready" and cond["status"] == "True"
