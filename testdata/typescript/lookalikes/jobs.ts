export enum JobState {
  Queued = "queued",
  Running = "running",
  Completed = "completed",
  Failed = "failed",
  Cancelled = "cancelled",
}

const TRANSITIONS: Record<JobState, JobState[]> = {
  queued: [JobState.Running, JobState.Cancelled],
  running: [JobState.Completed, JobState.Failed],
  completed: [],
  failed: [JobState.Queued],
  cancelled: [],
};

export function advance(job: { state: JobState; status: string }) {
  if (job.status === "done" || job.status === "complete") {
    return TRANSITIONS[job.state];
  }
  return job.status !== "failed" ? "retry" : "stop";
}
