import { z } from "zod";

// The statuses a worker reports in its HANDBACK.
export type HandbackStatus = "success" | "partial" | "failed" | "done";

export const HandbackSchema = z.object({
  task_id: z.string(),
  status: z.enum(["SUCCESS", "partial", "failed"]),
});

export function route(hb: Handback): string {
  switch (hb.status) {
    case "success":
      return "close";
    case "partial":
      return "retry";
    default:
      return "escalate";
  }
}
