import { z } from 'zod';
import { idCursorSchema } from '../http/common.ts';
import { candleIntervalSchema, candleSchema, marketSymbolSchema, recordedTickSchema } from '../http/market/market.contracts.ts';
import { wsAuthedFrameSchema, wsAuthFrameSchema, wsEventFrameSchema, wsUnauthedFrameSchema } from './user.events.ts';

/**
 * The push connection `/ws` (spec section 7: "a push-connection host is also configured").
 * Frames are JSON text. Channels:
 * - `ticks` — every recorded tick of every listed symbol;
 * - `candles:<symbol>:<interval>` — the changed candle each time a tick updates it.
 *
 * Resume: every tick carries its `tickId` (monotonic). A client that reconnects subscribes again
 * with `sinceTickId` = the last id it saw; the server first replays the recorded ticks after that
 * id (at most `maxReplayTicks`, newest kept; `replayTruncated` says when older ones were left out,
 * and the client then refetches candles over HTTP), then continues live.
 *
 * The user's own events (user.events.ts): `{op:'auth', token}` → `authed`, then `event` frames for
 * that user, whichever node the change happened on, until `unauthed` says the session is over.
 * Public channels need no auth.
 *
 * The upgrade is refused (403) when the request's Origin is neither the server's own nor one of
 * `CORS_ORIGINS`; a request without Origin (not a browser) is let through (ADR 0023).
 */
export const wsChannelSchema = z
  .string()
  .regex(/^(ticks|candles:[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}:(1m|5m|15m|1h|1d))$/, 'ticks or candles:<symbol>:<interval>');
export const maxReplayTicks = 2_000;
export const maxChannelsPerConnection = 50;

export const wsClientFrameSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('subscribe'),
    channels: z.array(wsChannelSchema).min(1).max(maxChannelsPerConnection),
    sinceTickId: idCursorSchema.optional(),
  }),
  z.object({ op: z.literal('unsubscribe'), channels: z.array(wsChannelSchema).min(1).max(maxChannelsPerConnection) }),
  z.object({ op: z.literal('ping') }),
  wsAuthFrameSchema,
]);

export const wsServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tick'), tick: recordedTickSchema }),
  z.object({ type: z.literal('candle'), symbol: marketSymbolSchema, interval: candleIntervalSchema, candle: candleSchema }),
  z.object({
    type: z.literal('subscribed'),
    channels: z.array(z.string()),
    replayedTicks: z.number().int(),
    replayTruncated: z.boolean(),
  }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.number().int(), msg: z.string() }),
  wsAuthedFrameSchema,
  wsEventFrameSchema,
  wsUnauthedFrameSchema,
]);

export type WsClientFrame = z.infer<typeof wsClientFrameSchema>;
export type WsServerFrame = z.infer<typeof wsServerFrameSchema>;
