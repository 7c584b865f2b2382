"""Results of a load benchmark run against the agent swarm."""

from dataclasses import dataclass
from enum import Enum


class RunStatus(str, Enum):
    """How one benchmark task ended: its own vocabulary, not a HANDBACK's."""

    SUCCESS = "success"
    FAILURE = "failure"
    PARTIAL = "partial"
    ERROR = "error"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"


RETRYABLE = {
    "error": True,
    "timeout": True,
    "cancelled": False,
    "failure": False,
    "success": False,
}


@dataclass
class TaskResult:
    task_id: str
    status: RunStatus
    duration_s: float

    def retry(self) -> bool:
        return RETRYABLE.get(self.status.value, False)
