import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';

/** Sets the nickname once (spec sections 3–5); the conditional update makes a race of two set it once too. */
export async function setNickname(deps: Deps, userId: bigint, nickname: string): Promise<UserRow> {
  const [row] = await deps.db.query<UserRow>('UPDATE users SET nickname = $2 WHERE id = $1 AND nickname IS NULL RETURNING *', [
    userId,
    nickname,
  ]);
  if (!row) throw new AppError('NICKNAME_ALREADY_SET');
  return row;
}
