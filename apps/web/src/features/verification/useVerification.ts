import { type ContractData, verificationStatusContract } from '@keel/contracts';
import { useApiQuery } from '../../shared/api/useApiQuery.ts';

export type VerificationStatus = ContractData<typeof verificationStatusContract>;

/** GET /home/verification: identity and advanced states, the tier and its daily withdrawal limit. */
export function useVerification(): { status: VerificationStatus | null; failed: boolean; reload: () => void } {
  const { data, failed, reload } = useApiQuery(verificationStatusContract);
  return { status: data, failed, reload };
}
