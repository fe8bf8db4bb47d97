/**
 * Whether a `/ws` upgrade may proceed, by its Origin header (ADR 0023). Browsers do not apply CORS
 * to WebSockets, so the server does what CORS does for the HTTP API: the server's own origin (the
 * Origin's host is the request's Host, as the page that opened the socket was served from it) and
 * the origins listed in `CORS_ORIGINS` (compared as @fastify/cors compares them, exactly) are
 * allowed; any other, `null` included, is refused. A request without Origin is not from a browser
 * (browsers always send one on a WebSocket upgrade) and is let through: such a client can send any
 * Origin it likes, so refusing it would protect nothing, and the token it must present to hear
 * anyone's events is what protects them.
 */
export function isWsOriginAllowed(origin: string | undefined, host: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  if (!host) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
}
