import type { UserEvent } from '@keel/contracts';
import type { Deps } from '../deps.ts';
import { SESSION_CACHE_CHANNEL, userChannel } from './event-bus.ts';

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
export async function announceSessionsEnded(deps: Pick<Deps, 'events' | 'logger' | 'sessionCache'>, userId: bigint): Promise<void> {
  await forgetCachedSessions(deps, userId);
  if (!deps.events) return;
  try {
    await deps.events.publish(userChannel(userId), { kind: 'sessions.ended' });
  } catch (error) {
    deps.logger.warn({ err: error, userId: userId.toString() }, 'realtime: announcing ended sessions failed');
  }
}

/**
 * Drops the user's sessions from the session cache of every node (use-cases/auth/session-cache.ts):
 * this node's at once, the others' through the bus. Call it after the change committed: sessions
 * ended, or anything in the user's row changed (status, passwords, contacts, settings) that a read
 * shows. Never throws: a lost message leaves another node's entry for at most its second.
 */
export async function forgetCachedSessions(deps: Pick<Deps, 'events' | 'logger' | 'sessionCache'>, userId: bigint): Promise<void> {
  deps.sessionCache?.forgetUser(userId);
  if (!deps.events) return;
  try {
    await deps.events.publish(SESSION_CACHE_CHANNEL, { kind: 'user.changed', userId: userId.toString() });
  } catch (error) {
    deps.logger.warn({ err: error, userId: userId.toString() }, 'realtime: telling the nodes to forget cached sessions failed');
  }
}
