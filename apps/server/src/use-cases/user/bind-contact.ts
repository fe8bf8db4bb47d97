import { AppError } from '@keel/contracts';
import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS, type CodeChannel } from '@keel/domain';
import { translate } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import { queueNotification } from '../../integrations/notifier/outbox.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { checkCode, codeSendDecision, consumeCode, issueCode } from '../../persistence/verification-codes.store.ts';
import { findUserByContact, normalizeTarget } from '../auth/contact-target.ts';
import { antiPhishingLine } from './anti-phishing.ts';

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
    const decision = await codeSendDecision(tx, { target, clientIp: input.clientIp, now });
    if (!decision.allowed) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
    const purpose = purposeOf(input.channel);
    const { code, expiresAt } = await issueCode(tx, { purpose, channel: input.channel, target, clientIp: input.clientIp, now });
    await queueNotification(tx, {
      channel: input.channel,
      target,
      subject: translate(user.language, 'notify.code.subject'),
      body: `${translate(user.language, 'notify.code.bind', { code, minutes: CODE_TTL_MS / 60_000 })}${antiPhishingLine(user, input.channel)}`,
      topic: `verification_code:${purpose}`,
      at: now,
    });
    return { expiresAtMs: expiresAt.getTime(), resendAfterMs: now.getTime() + CODE_RESEND_COOLDOWN_MS };
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
