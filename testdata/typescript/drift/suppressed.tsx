// HANDBACK statuses the dashboard shows; the legacy ones are accepted on purpose.
export function Legend({ handback }) {
  // protoscan:ignore enumdrift/legacy-status -- old workers still send it
  if (handback.status === "complete") return <i>ok</i>;
  /* protoscan:ignore enumdrift/legacy-status -- old workers still send it */
  if (handback.status === "failed") return <i>ko</i>;
  return (
    <ul>
      {/* protoscan:ignore enumdrift/legacy-status -- old workers still send it */}
      {handback.status === "complete" && <li>done</li>}
    </ul>
  );
}
