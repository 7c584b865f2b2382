export function finish(handback) {
  const { status } = handback;
  if (status === "complete") {
    return "close";
  }
  return handback["status"] !== "failed" ? "retry" : "escalate";
}
