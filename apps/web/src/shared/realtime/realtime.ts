import type { WsServerFrame } from '@keel/contracts';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { ApiError, applySessionRules } from '../api/client.ts';
import { onSessionChange, session } from '../api/session.ts';
import { whenFirstScreenSettled } from '../ui/useAfterFirstScreen.ts';
import { type ConnectionStatus, defaultSocketUrl, RealtimeConnection, type SocketLike } from './connection.ts';

/** One recorded tick as the push connection delivers it. */
export type RecordedTick = Extract<WsServerFrame, { type: 'tick' }>['tick'];

let shared: RealtimeConnection | null = null;

/** The app's one push connection, created on first use. */
export function realtime(): RealtimeConnection {
  if (shared) return shared;
  const connection = new RealtimeConnection({
    url: () => defaultSocketUrl(window.location),
    // The browser's WebSocket has every member of SocketLike; only its handlers' event types are narrower.
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    // The frame reader needs zod and the frame schemas: they download once the first screen has
    // painted and settled, so its largest paint never waits for them (ADR 0025, fourth pass); the
    // screen's HTTP reads show its data meanwhile, and the socket opens with the reader.
    loadFrameReader: () => whenFirstScreenSettled().then(() => import('./frame-reader.ts').then((module) => module.readServerFrame)),
    token: session.token,
    // The server ended the session under a live connection (logged out elsewhere, a password
    // change, a suspension, expiry): the same rules as an HTTP answer with that error.
    onSessionEnded: (code, msg) => applySessionRules(new ApiError({ code, msg, data: null })),
  });
  // Login, logout, or a session started or ended in another tab: authenticate again (or stop).
  onSessionChange(() => connection.sessionChanged());
  // Back online: no reason to wait out the backoff.
  window.addEventListener('online', () => connection.retryNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') connection.retryNow();
  });
  shared = connection;
  return connection;
}

/**
 * Every recorded tick pushed over `/ws`, live. `onResync` runs when ticks were missed and cannot
 * be replayed (a truncated replay, or a reconnect with nothing to resume from): refetch over HTTP.
 */
export function useTicks(onTick: (tick: RecordedTick) => void, onResync?: () => void): void {
  const handlers = useRef({ onTick, onResync });
  handlers.current = { onTick, onResync };
  useEffect(
    () =>
      realtime().subscribe('ticks', {
        onFrame: (frame) => {
          if (frame.type === 'tick') handlers.current.onTick(frame.tick);
        },
        onResync: () => handlers.current.onResync?.(),
      }),
    [],
  );
}

/** The connection's state, for a "live" or "reconnecting" mark. */
export function useRealtimeStatus(): ConnectionStatus {
  return useSyncExternalStore(
    (listener) => realtime().onStatus(listener),
    () => realtime().status(),
  );
}
