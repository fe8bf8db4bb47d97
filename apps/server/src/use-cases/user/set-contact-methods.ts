import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { type ContactMethod, contactMethodsOf } from './security-overview.ts';

/** Replaces the contact methods P2P partners see (validated and bounded by the contract). */
export async function setContactMethods(deps: Deps, userId: bigint, methods: ContactMethod[]): Promise<ContactMethod[]> {
  const [row] = await deps.db.query<UserRow>('UPDATE users SET contact_methods = $2::jsonb WHERE id = $1 RETURNING *', [
    userId,
    JSON.stringify(methods),
  ]);
  return contactMethodsOf(row!);
}
