import { AppError } from '@keel/contracts';
import type { CodeChannel } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { checkCode, consumeCode } from '../../persistence/verification-codes.store.ts';
import { findUserByContact, normalizeTarget } from '../auth/contact-target.ts';
import { issueAndSendCode } from '../auth/issue-and-send-code.ts';

const purposeOf = (channel: CodeChannel) => (channel === 'email' ? 'bind_email' : 'bind_phone');

/** Sends a code to an e-mail address or phone the user wants to bind; taken addresses are refused. */
export async function sendContactCode(
  deps: Deps,
  user: UserRow,
  input: { channel: CodeChannel; target: string; clientIp: string },
): Promise<{ expiresAtMs: number; resendAfterMs: number }> {
  const target = normalizeTarget(input.channel, input.target);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const owner = await findUserByContact(tx, input.channel, target);
    if (owner) throw new AppError('PHONE_OR_EMAIL_REGISTERED');
    return issueAndSendCode(tx, {
      purpose: purposeOf(input.channel),
      channel: input.channel,
      target,
      clientIp: input.clientIp,
      now,
      recipient: user,
      bodyKey: 'notify.code.bind',
      deliver: true,
    });
  });
}

/** Binds (or changes to) the address the code was sent to. */
export async function bindContact(
  deps: Deps,
  user: UserRow,
  input: { channel: CodeChannel; target: string; code: string },
): Promise<UserRow> {
  const target = normalizeTarget(input.channel, input.target);
  const now = deps.now();
  const check = await checkCode(deps.db, { purpose: purposeOf(input.channel), target, code: input.code, now });
  if (!check.ok) throw new AppError('WRONG_VERIFICATION_CODE');
  try {
    return await deps.db.transaction(async (tx) => {
      if (await findUserByContact(tx, input.channel, target)) throw new AppError('PHONE_OR_EMAIL_REGISTERED');
      if (!(await consumeCode(tx, check.codeId, now))) throw new AppError('WRONG_VERIFICATION_CODE');
      const column = input.channel === 'email' ? 'email' : 'phone';
      const [row] = await tx.query<UserRow>(`UPDATE users SET ${column} = $2 WHERE id = $1 RETURNING *`, [user.id, target]);
      return row!;
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new AppError('PHONE_OR_EMAIL_REGISTERED');
    throw error;
  }
}
