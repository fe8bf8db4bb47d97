import { AppError, type LocaleCode } from '@keel/contracts';
import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS, type CodeChannel, type CodePurpose } from '@keel/domain';
import { translate } from '@keel/locales';
import { queueNotification } from '../../integrations/notifier/outbox.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { codeSendDecision, issueCode } from '../../persistence/verification-codes.store.ts';
import { antiPhishingLine } from '../user/anti-phishing.ts';
import { throttleSourceOf } from './login-attempts.ts';

/**
 * The one path every code takes, inside the caller's transaction: the send limits (429 with the
 * wait), a new code, and — when `deliver` — the message in the recipient's language with their
 * anti-phishing line. Callers decide who may ask (registered or not) before calling.
 */
export async function issueAndSendCode(
  tx: Queryable,
  input: {
    purpose: CodePurpose;
    channel: CodeChannel;
    /** Normalised (contact-target.ts). */
    target: string;
    clientIp: string;
    now: Date;
    /** The account the message is for, when there is one (its language and anti-phishing code). */
    recipient?: Pick<UserRow, 'language' | 'anti_phishing_code'>;
    /** Language when there is no account yet. */
    language?: LocaleCode;
    bodyKey: 'notify.code.register' | 'notify.code.reset_password' | 'notify.code.bind';
    /** False for recovery of an address no account has: the code is recorded (limits count it) but not sent. */
    deliver: boolean;
  },
): Promise<{ expiresAtMs: number; resendAfterMs: number }> {
  const { purpose, channel, target, now } = input;
  // Counted per address as the logins are: an IPv6 /64 is one address.
  const clientIp = throttleSourceOf(input.clientIp);
  const decision = await codeSendDecision(tx, { target, clientIp, now });
  if (!decision.allowed) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
  const { code, expiresAt } = await issueCode(tx, { purpose, channel, target, clientIp, now });
  if (input.deliver) {
    const language = input.recipient?.language ?? input.language ?? 'en';
    await queueNotification(tx, {
      channel,
      target,
      subject: translate(language, 'notify.code.subject'),
      body: `${translate(language, input.bodyKey, { code, minutes: CODE_TTL_MS / 60_000 })}${antiPhishingLine(input.recipient, channel)}`,
      topic: `verification_code:${purpose}`,
      at: now,
    });
  }
  return { expiresAtMs: expiresAt.getTime(), resendAfterMs: now.getTime() + CODE_RESEND_COOLDOWN_MS };
}
