import React from "react";

type BadgeProps = { status: "success" | "error" | "warning" | "done"; label: string };

export function Badge({ status, label }: BadgeProps) {
  const color = status === "success" ? "green" : status === "error" ? "red" : "grey";
  return <Alert status="error" title={label}>{status === "done" ? "✓" : label}</Alert>;
}

export const StatusBadge = (props: { status: string }) => {
  switch (props.status) {
    case "active":
      return <span className="on" />;
    case "completed":
      return <span className="done" />;
  }
  return null;
};
