// A module of its own, without React or the contracts, so the app's first script (main.tsx) can
// start the first screen's reads before React has downloaded (issue 14's first-paint budget,
// ADR 0025). The API client (client.ts) then takes each answer instead of asking again.

/** How long an early answer waits for its query; a screen that asks later reads afresh. */
export const EARLY_READ_TTL_MS = 10_000;

interface EarlyRead {
  /** The session's header, or null for a read without one (a public read on a visit without a session). */
  authorization: string | null;
  startedAtMs: number;
  response: Promise<Response>;
}

const earlyReads = new Map<string, EarlyRead>();

/**
 * Starts GETs of the first screen's reads with the device's session (or none: `token` null, for a
 * public read), exactly as the API client would send them (same address, same headers), and keeps
 * each answer for that client to take.
 */
export function startEarlyReads(urls: readonly string[], token: string | null): void {
  const authorization = token === null ? null : `Bearer ${token}`;
  for (const url of urls) {
    const response = fetch(url, { headers: authorization === null ? { accept: 'application/json' } : { accept: 'application/json', authorization } });
    // A failed read shows where it is taken: the client reports it as it reports any network failure.
    response.catch(() => {});
    earlyReads.set(url, { authorization, startedAtMs: Date.now(), response });
  }
}

/**
 * `fetch`, except that a GET the first script already started for the same address and session
 * gets that answer. Each early answer is taken once (a refetch asks the server again) and only
 * within `EARLY_READ_TTL_MS` of its start; a different session never gets another's answer.
 */
export function fetchWithEarlyReads(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (typeof input === 'string' && (init?.method ?? 'GET').toUpperCase() === 'GET') {
    const early = earlyReads.get(input);
    if (early) {
      earlyReads.delete(input);
      const authorization = new Headers(init?.headers).get('authorization');
      if (authorization === early.authorization && Date.now() - early.startedAtMs < EARLY_READ_TTL_MS) return early.response;
    }
  }
  return fetch(input, init);
}
