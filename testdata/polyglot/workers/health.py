"""Statuses of other things: none of these is a HANDBACK status."""
import argparse


def health():
    return {"status": "ok", "version": "1.4.2", "uptime": 1234}


def check(resp):
    if resp.status_code == 200 and resp.json().get("status") == "healthy":
        return True
    return resp.status == "503 Service Unavailable"


class Account:
    STATES = {"active", "suspended", "failed"}

    def block(self):
        if self.status == "active":
            self.status = "suspended"


def ci_conclusion(run):
    # GitHub check runs: success and failure, but cancelled and skipped too
    if run["conclusion"] in ("success", "failure", "cancelled", "skipped"):
        return run["status"] == "completed"
    return False


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--status", choices=["open", "closed"])
    return p.parse_args()
