import type { LocaleCode } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';

export async function hasUnreadMessages(deps: Deps, userId: bigint): Promise<boolean> {
  const rows = await deps.db.query('SELECT 1 FROM messages WHERE user_id = $1 AND read_at IS NULL LIMIT 1', [userId]);
  return rows.length > 0;
}

export async function setUserLanguage(deps: Deps, userId: bigint, language: LocaleCode): Promise<UserRow> {
  const [row] = await deps.db.query<UserRow>('UPDATE users SET language = $2 WHERE id = $1 RETURNING *', [userId, language]);
  return row!;
}
