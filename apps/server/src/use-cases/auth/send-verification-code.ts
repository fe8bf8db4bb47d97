import { AppError, type LocaleCode } from '@keel/contracts';
import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS, type CodeChannel } from '@keel/domain';
import { translate } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import { queueNotification } from '../../integrations/notifier/outbox.ts';
import { codeSendDecision, issueCode } from '../../persistence/verification-codes.store.ts';
import { antiPhishingLine } from '../user/anti-phishing.ts';
import { findUserByContact, normalizeTarget } from './contact-target.ts';

export interface SendCodeInput {
  channel: CodeChannel;
  target: string;
  purpose: 'register' | 'reset_password';
  language?: LocaleCode;
  clientIp: string;
}

/**
 * Sends a code for registration or password recovery. Registration must tell the user when the
 * address is taken (spec: "phone or e-mail already registered"). Recovery answers the same whether
 * or not an account has the address, and sends nothing when none has, so it cannot be used to
 * find out who is a customer; the reset then fails with "wrong verification code".
 */
export async function sendVerificationCode(deps: Deps, input: SendCodeInput): Promise<{ expiresAtMs: number; resendAfterMs: number }> {
  const target = normalizeTarget(input.channel, input.target);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const owner = await findUserByContact(tx, input.channel, target);
    if (input.purpose === 'register' && owner) throw new AppError('PHONE_OR_EMAIL_REGISTERED');
    const decision = await codeSendDecision(tx, { target, clientIp: input.clientIp, now });
    if (!decision.allowed) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
    const { code, expiresAt } = await issueCode(tx, { purpose: input.purpose, channel: input.channel, target, clientIp: input.clientIp, now });
    const sendsMessage = input.purpose === 'register' || owner !== undefined;
    if (sendsMessage) {
      const language = owner?.language ?? input.language ?? 'en';
      await queueNotification(tx, {
        channel: input.channel,
        target,
        subject: translate(language, 'notify.code.subject'),
        body: `${translate(language, `notify.code.${input.purpose}`, { code, minutes: CODE_TTL_MS / 60_000 })}${antiPhishingLine(owner, input.channel)}`,
        topic: `verification_code:${input.purpose}`,
        at: now,
      });
    }
    return { expiresAtMs: expiresAt.getTime(), resendAfterMs: now.getTime() + CODE_RESEND_COOLDOWN_MS };
  });
}
