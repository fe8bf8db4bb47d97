import { type ErrorKey, errorKeyFromMsg } from '@keel/contracts';
import { paymentPasswordLockDetails, type RefusalDetail, type RefusalFormat } from '../wallet/refusal.ts';

/**
 * What a refused publication or investment tells the user beyond the catalogue message: the rule
 * and its figures when the answer's `data` carries them, the field it is about, and the next step.
 * Pure, so the wording is tested.
 */
export interface FundRefusal {
  errorKey: ErrorKey | undefined;
  details: RefusalDetail[];
  field?: 'amount' | 'collateralAmount' | 'paymentPassword' | 'terms';
  /** Set the payment password first. */
  needsPaymentPassword?: boolean;
  /** Advanced verification first. */
  needsVerification?: boolean;
  /** The request changed under the form (filled, closed): read it again. */
  reload?: boolean;
}

type Data = Record<string, unknown>;
const asData = (data: unknown): Data => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {});
const decimal = (value: unknown): string | undefined => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? value : undefined);

const termsKeys = {
  amount: 'web.fund.refusal.termsAmount',
  rate: 'web.fund.refusal.termsRate',
  term: 'web.fund.refusal.termsTerm',
  schedule: 'web.fund.refusal.termsSchedule',
  window: 'web.fund.refusal.termsWindow',
} as const;

/** `action`: a publication (`publish`) or an investment (`invest`); a short balance is the collateral's in one, the USDT's in the other. */
export function describeFundRefusal(message: string, rawData: unknown, format: RefusalFormat, action: 'publish' | 'invest'): FundRefusal {
  const errorKey = errorKeyFromMsg(message);
  const data = asData(rawData);
  const refusal: FundRefusal = { errorKey, details: [] };
  switch (errorKey) {
    case 'ADVANCED_VERIFICATION_REQUIRED':
      refusal.details.push({ key: 'web.fund.refusal.verify', vars: {} });
      refusal.needsVerification = true;
      break;
    case 'LOAN_QUOTA_INSUFFICIENT': {
      const limit = decimal(data.creditLimit) ?? decimal(data.limit);
      refusal.details.push(limit === undefined ? { key: 'web.fund.refusal.limitPlain', vars: {} } : { key: 'web.fund.refusal.limit', vars: { limit: format.amount(limit, 'USDT') } });
      refusal.field = 'amount';
      break;
    }
    case 'PARAMETER_ERROR': {
      const problem = typeof data.problem === 'string' ? data.problem : '';
      if (data.field === 'terms' && problem in termsKeys) {
        refusal.details.push({ key: termsKeys[problem as keyof typeof termsKeys], vars: {} });
        refusal.field = 'terms';
      }
      break;
    }
    case 'AMOUNT_OUT_OF_RANGE': {
      const low = decimal(data.min);
      const high = decimal(data.max) ?? decimal(data.remaining);
      if (low !== undefined && high !== undefined) refusal.details.push({ key: 'web.fund.refusal.range', vars: { min: format.amount(low, 'USDT'), max: format.amount(high, 'USDT') } });
      refusal.field = 'amount';
      refusal.reload = true;
      break;
    }
    case 'WRONG_AMOUNT':
      refusal.field = 'amount';
      break;
    case 'INSUFFICIENT_BALANCE':
      refusal.field = action === 'publish' ? 'collateralAmount' : 'amount';
      break;
    case 'PRICE_UNAVAILABLE':
      refusal.details.push({ key: 'web.fund.refusal.noPrice', vars: {} });
      break;
    case 'FUND_NOT_OPEN':
      refusal.details.push({ key: 'web.fund.refusal.notOpen', vars: {} });
      refusal.reload = true;
      break;
    case 'FUND_OWN_REQUEST':
      refusal.details.push({ key: 'web.fund.refusal.own', vars: {} });
      break;
    case 'PAYMENT_PASSWORD_NOT_SET':
      refusal.details.push({ key: 'web.fund.refusal.noPaymentPassword', vars: {} });
      refusal.needsPaymentPassword = true;
      break;
    case 'WRONG_PAYMENT_PASSWORD':
    case 'PAYMENT_PASSWORD_LOCKED':
      refusal.details.push(...paymentPasswordLockDetails(errorKey, data, format.time));
      refusal.field = 'paymentPassword';
      break;
    default:
      break;
  }
  return refusal;
}
