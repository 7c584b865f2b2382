"""A tool server: its replies and events carry a task id and a status."""
from dataclasses import dataclass


def run_tool(task_id, tool, args):
    try:
        result = tool(**args)
    except Exception as exc:  # a reply, not a HANDBACK: no output, a message
        return {"task_id": task_id, "status": "error", "message": str(exc)}
    return {"task_id": task_id, "status": "ok", "result": result, "elapsed_ms": 3}


def publish(queue, task_id, context_id):
    # task-status events built with keyword arguments
    queue.put(Event(task_id=task_id, context_id=context_id, status="working", final=False))
    queue.put(TaskStatusUpdateEvent(task_id=task_id, context_id=context_id,
                                    status=TaskStatus(state="completed"), final=True))
    queue.put(TaskArtifactUpdateEvent(task_id=task_id, status="failed", output=None, metrics={}))


@dataclass
class JobState:
    task_id: str
    status: str
    worker: str


def snapshot(job):
    return JobState(task_id=job.id, status="running", worker=job.worker)


# the columns of the task table, and the wire names of its fields
COLUMNS = {"task_id": "Task", "status": "Status", "output": "Output", "metrics": "Metrics"}
HEADERS = {"task_id": "Task ID", "status": "Status", "output": "Result"}
WIRE = dict(TaskID="task_id", Status="status", Output="output")


def history(events):
    return [{"task_id": e.task_id, "status": "done", "at": e.at, "by": e.by} for e in events]
