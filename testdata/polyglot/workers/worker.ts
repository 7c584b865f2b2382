// The TypeScript worker of the same repository, with drifted statuses planted.
import { z } from "zod";

export type HandbackStatus = "success" | "failure" | "partial" | "blocked" | "escalated"; // escalated: legacy

export const TERMINAL = ["success", "failure", "Escalate"] as const; // Escalate: case

export enum Status {
  Success = "success",
  Failure = "failed", // legacy
  Partial = "partial",
  Blocked = "blocked",
  Escalate = "escalate",
}

export const HandbackSchema = z.object({
  task_id: z.string(),
  status: z.enum(["SUCCESS", "failure", "partial", "blocked", "escalate"]), // SUCCESS: case
});

export function route(hb: Handback): string | null {
  const { status } = hb;
  if (status === "success") return "merge";
  if (["blocked", "escalated"].includes(status)) return "human"; // escalated: legacy
  if (hb["status"] === "FAILURE") return "retry"; // case
  return null;
}

export function finish(hb: Handback): boolean {
  switch (hb.status) {
    case "success":
    case "partial":
      return true;
    case "complete": // legacy
      return true;
  }
  hb.status = "waiting"; // unknown
  return false;
}
