import { z } from 'zod';
import { idSchema } from '../http/common.ts';

/**
 * Per-user events on the push connection `/ws` (frames in market.events.ts). An event is only a
 * nudge to refetch over HTTP: it carries ids, never balances or message text, and it can be lost
 * (a node restarting, a broken connection, Redis down), so the database stays the truth.
 *
 * - `message` — a new system message: the tab bar's unread flag is on (`GET /home/user/unread`).
 * - `p2p.order` — an order the user is a party to changed; `status` is its new status.
 * - `p2p.chat` — a chat message in an order the user is a party to was sent or withdrawn; the
 *   client fetches it over HTTP.
 * - `options.order` — one of the user's contracts was placed or settled; `status` is its status.
 * - `leverage.position` — one of the user's leveraged or futures positions opened, changed, or was
 *   closed (by the user, a take-profit, a stop-loss or liquidation); `status` is its status.
 * - `leverage.order` — one of the user's limit orders was placed, filled (a position opened) or
 *   cancelled; `status` is its status.
 * - `earn.subscription` — one of the user's earn subscriptions was made, paid a day's interest,
 *   matured or was redeemed; `status` is its status.
 * - `loan` — one of the user's loans was applied for, approved (paid out), rejected, repaid,
 *   margin-called or liquidated; `status` is its status.
 * - `fund.request` — a funding request the user published or invested in changed (approved,
 *   rejected, invested in, filled, a tranche released, repaid, defaulted, expired); `status` is its status.
 */
export const userEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), unread: z.literal(true) }),
  z.object({ kind: z.literal('p2p.order'), orderId: idSchema, status: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('p2p.chat'), orderId: idSchema, messageId: idSchema }),
  z.object({ kind: z.literal('options.order'), orderId: idSchema, status: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('leverage.position'), positionId: idSchema, status: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('leverage.order'), orderId: idSchema, status: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('earn.subscription'), subscriptionId: idSchema, status: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('loan'), loanId: idSchema, status: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('fund.request'), requestId: idSchema, status: z.string().min(1).max(40) }),
]);

export type UserEvent = z.infer<typeof userEventSchema>;

/**
 * Client → server: authenticate this connection with the session token (the one the HTTP API takes
 * in Authorization). Answered by `authed`, or by an error frame with the catalogue's code and msg
 * (`401 token does not exist`, `401 token empty`, `400 user status incorrect`); a refused
 * connection stays open for the public channels. One user per connection: `auth` again with the
 * same user's token answers `authed` again, with another user's it answers `400 parameter error`.
 */
export const wsAuthFrameSchema = z.object({ op: z.literal('auth'), token: z.string().max(200) });

/**
 * Server → client: from the moment this frame is sent, every event published for `userId` reaches
 * the connection as an `event` frame. What happened before it (or while disconnected) is not
 * replayed: after `authed` the client refetches what it shows, then follows the events.
 */
export const wsAuthedFrameSchema = z.object({ type: z.literal('authed'), userId: idSchema });

/** Server → client: an event for the authenticated user. */
export const wsEventFrameSchema = z.object({ type: z.literal('event'), event: userEventSchema });

/**
 * Server → client: the session this connection authenticated with is over — logged out, ended
 * from the sessions page, ended by a password change or recovery, expired — or its user may no
 * longer use it (suspended, banned); on every node, within moments (ADR 0023). No event reaches
 * the connection after it. `code` and `msg` are the catalogue error an HTTP call with the token
 * now gets (401 token does not exist, 400 user status incorrect), so the client applies the same
 * session rules. The connection keeps its public channels and may `auth` again.
 */
export const wsUnauthedFrameSchema = z.object({ type: z.literal('unauthed'), code: z.number().int(), msg: z.string() });
