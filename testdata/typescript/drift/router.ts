const ROUTES = { success: close, failed: retry, partial: retry };

export function route(handback: Handback) {
  return ROUTES[handback.status](handback);
}
