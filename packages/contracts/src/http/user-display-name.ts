import type { PublicUser } from './common.ts';

/**
 * How the app names the logged-in user to themselves: nickname, else username, else the e-mail or
 * phone they registered with, in full. Never for another person: anyone else is named with
 * `publicUserName` of `@keel/domain`, which masks contacts (ADR 0023; a test keeps it so).
 * A module of its own without zod: the home screen's greeting uses it on its first render.
 */
export function userDisplayName(user: Pick<PublicUser, 'id' | 'nickname' | 'username' | 'email' | 'phone'>): string {
  return user.nickname ?? user.username ?? user.email ?? user.phone ?? `#${user.id}`;
}
