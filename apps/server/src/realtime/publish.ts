import type { UserEvent } from '@keel/contracts';
import type { Deps } from '../deps.ts';
import { userChannel } from './event-bus.ts';

/**
 * Tells the user's open connections, on every node, that something of theirs changed. Call it
 * AFTER the transaction that made the change has committed (an event about a rolled-back change
 * would send the client to refetch nothing, and one sent before COMMIT could be refetched too
 * early). It never throws: the change is in the database and the event is only a nudge to
 * refetch, so a failed publish is logged and the user's request still succeeds.
 */
export async function publishToUser(deps: Pick<Deps, 'events' | 'logger'>, userId: bigint, event: UserEvent): Promise<void> {
  if (!deps.events) return;
  try {
    await deps.events.publish(userChannel(userId), event);
  } catch (error) {
    deps.logger.warn({ err: error, userId: userId.toString(), kind: event.kind }, 'realtime: publishing a user event failed');
  }
}

/**
 * Tells every node that sessions of the user ended, or that the user may no longer use them, so
 * each gateway ends the user stream of the sockets authenticated with such a session (ADR 0023).
 * Call it AFTER the transaction that ended them has committed (a gateway checks the sessions
 * against the database when it hears this). It never throws: a lost announcement is caught by the
 * gateway's periodic check of its sockets' sessions.
 */
export async function announceSessionsEnded(deps: Pick<Deps, 'events' | 'logger'>, userId: bigint): Promise<void> {
  if (!deps.events) return;
  try {
    await deps.events.publish(userChannel(userId), { kind: 'sessions.ended' });
  } catch (error) {
    deps.logger.warn({ err: error, userId: userId.toString() }, 'realtime: announcing ended sessions failed');
  }
}
