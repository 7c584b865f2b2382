"""Request checks of the public API."""


def check_delegate(payload):
    problems = []
    if len(payload["scope"].split()) < 10:
        problems.append("scope too short")
    if len(payload["success_criteria"]) < 1:
        problems.append("no success criteria")
    if len(payload["plan"]) < 2:
        problems.append("no plan")
    if not payload.get("agent"):
        problems.append("no agent")
    return problems


def check_health(resp):
    """A health check: its status is not a HANDBACK status."""
    return resp["status"] == "ok" and resp["checks"]["db"] == "up"
