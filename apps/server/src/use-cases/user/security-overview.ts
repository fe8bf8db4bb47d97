import type { z } from 'zod';
import type { contactMethodSchema, securityOverviewSchema } from '@keel/contracts';
import { withdrawalsLockedUntilMs } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { paymentPasswordLockState } from './check-payment-password.ts';

export type ContactMethod = z.infer<typeof contactMethodSchema>;

export function contactMethodsOf(user: UserRow): ContactMethod[] {
  const stored = user.contact_methods;
  return Array.isArray(stored) ? stored : (JSON.parse(String(stored ?? '[]')) as ContactMethod[]);
}

export async function securityOverview(deps: Deps, user: UserRow): Promise<z.infer<typeof securityOverviewSchema>> {
  const changedAtMs = user.login_password_changed_at?.getTime() ?? null;
  const lockedUntilMs = withdrawalsLockedUntilMs(changedAtMs, deps.now().getTime());
  return {
    email: user.email,
    phone: user.phone,
    nicknameSet: user.nickname !== null,
    paymentPasswordSet: user.payment_password_hash !== null,
    totpEnabled: user.totp_secret !== null,
    antiPhishingCodeSet: user.anti_phishing_code !== null,
    loginPasswordChangedAt: user.login_password_changed_at?.toISOString() ?? null,
    withdrawalsLockedUntil: lockedUntilMs === null ? null : new Date(lockedUntilMs).toISOString(),
    paymentPasswordLock: await paymentPasswordLockState(deps, user),
    contactMethods: contactMethodsOf(user),
  };
}
