import { AppError, type LocaleCode } from '@keel/contracts';
import type { CodeChannel } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { findUserByContact, normalizeTarget } from './contact-target.ts';
import { issueAndSendCode } from './issue-and-send-code.ts';

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
    return issueAndSendCode(tx, {
      purpose: input.purpose,
      channel: input.channel,
      target,
      clientIp: input.clientIp,
      now,
      recipient: owner,
      language: input.language,
      bodyKey: `notify.code.${input.purpose}`,
      deliver: input.purpose === 'register' || owner !== undefined,
    });
  });
}
