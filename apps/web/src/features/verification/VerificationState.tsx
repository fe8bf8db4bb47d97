import type { ContractData, verificationStates, verificationStatusContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';

export type VerificationState = (typeof verificationStates)[number];

/** GET /home/verification: identity and advanced states, the tier and its daily withdrawal limit. */
export type VerificationStatus = ContractData<typeof verificationStatusContract>;

export const stateKeys: Record<VerificationState, MessageKey> = {
  unverified: 'web.verification.state.unverified',
  in_review: 'web.verification.state.in_review',
  verified: 'web.verification.state.verified',
  rejected: 'web.verification.state.rejected',
};

/** Spec section 4: not verified, in review, verified, rejected, shown per level. */
export function StateBadge({ state, testId }: { state: VerificationState; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`state-badge state-${state}`} data-testid={testId} data-state={state}>
      {t(stateKeys[state])}
    </span>
  );
}
