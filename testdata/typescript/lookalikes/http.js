export async function fetchTask(url) {
  const res = await fetch(url);
  if (res.status === 404 || res.statusText === "Not Found") {
    return null;
  }
  const body = await res.json();
  if (body.status === "error" || body.status === "failed") {
    throw new Error(body.message);
  }
  return body.status === "ok" ? body.data : undefined;
}
