"""A worker that hands results back, with drifted statuses planted."""
import enum
from typing import Literal

HandbackStatus = Literal["success", "failure", "partial", "blocked", "escalated"]  # escalated: legacy

TERMINAL = frozenset({"success", "failure", "Escalate"})  # Escalate: case


class Status(enum.Enum):
    SUCCESS = "success"
    FAILURE = "failed"  # legacy
    PARTIAL = "partial"
    BLOCKED = "blocked"
    ESCALATE = "escalate"


def make_handback(task_id, ok):
    result = {"task_id": task_id, "status": "done", "output": None}  # unknown
    if not ok:
        result = Handback(task_id=task_id, status="failed")  # legacy
    return result


def route(hb):
    status = hb.get("status")
    if status == "success":
        return "merge"
    if status in ("blocked", "escalated"):  # escalated: legacy
        return "human"
    if status == "FAILURE":  # case
        return "retry"
    return None


def finish(hb):
    match hb["status"]:
        case "success" | "partial":
            return True
        case "complete":  # legacy
            return True
    hb["status"] = "waiting"  # unknown
    return False



ACCEPTED = {"success", "failure", "partial", "blocked"}  # lacks escalate: rejects valid HANDBACKs
DONE = {"success", "failure"}  # a subset a predicate answers with: silent


def accept(hb):
    if hb["status"] not in ACCEPTED:
        raise ValueError(hb["status"])


def is_finished(hb):
    if hb["status"] in DONE:
        return True
    return False
