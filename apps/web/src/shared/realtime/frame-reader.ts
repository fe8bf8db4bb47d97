import { type WsServerFrame, wsServerFrameSchema } from '@keel/contracts';

/**
 * Checks a frame from `/ws` against the contract (ws/market.events.ts): the frame, or null for
 * anything else. A module of its own because it needs zod: the push connection loads it on its
 * first connection (realtime.ts), after the screen that opened it has painted (ADR 0025).
 */
export function readServerFrame(value: unknown): WsServerFrame | null {
  const result = wsServerFrameSchema.safeParse(value);
  return result.success ? result.data : null;
}
