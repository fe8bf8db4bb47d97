import { type ErrorKey, errorKeyFromMsg } from '@keel/contracts';
import { paymentPasswordLockDetails, type RefusalDetail, type RefusalFormat } from '../wallet/refusal.ts';

/**
 * What a refused application or repayment tells the user beyond the catalogue message: the rule and
 * its figures when the answer's `data` carries them, the field it is about, and the next step. Pure,
 * so the wording is tested.
 */
export interface LoanRefusal {
  errorKey: ErrorKey | undefined;
  details: RefusalDetail[];
  field?: 'amount' | 'collateralAmount' | 'paymentPassword';
  /** Set the payment password first. */
  needsPaymentPassword?: boolean;
  /** The product's terms (the agreement) changed: the agreement is generated again and accepted again. */
  reloadAgreement?: boolean;
}

type Data = Record<string, unknown>;
const asData = (data: unknown): Data => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {});
const decimal = (value: unknown): string | undefined => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? value : undefined);

/** `action`: an application (`apply`) or a repayment (`repay`); a short balance is the collateral's in one, the USDT's in the other. */
export function describeLoanRefusal(message: string, rawData: unknown, format: RefusalFormat, action: 'apply' | 'repay'): LoanRefusal {
  const errorKey = errorKeyFromMsg(message);
  const data = asData(rawData);
  const refusal: LoanRefusal = { errorKey, details: [] };
  switch (errorKey) {
    case 'LOAN_AMOUNT_WRONG':
    case 'AMOUNT_OUT_OF_RANGE': {
      const low = decimal(data.min);
      const high = decimal(data.max);
      if (low !== undefined && high !== undefined) refusal.details.push({ key: 'web.loans.refusal.range', vars: { min: format.amount(low, 'USDT'), max: format.amount(high, 'USDT') } });
      refusal.field = 'amount';
      break;
    }
    case 'LOAN_QUOTA_INSUFFICIENT': {
      const limit = decimal(data.limit) ?? decimal(data.available);
      if (limit !== undefined) refusal.details.push({ key: 'web.loans.refusal.quota', vars: { limit: format.amount(limit, 'USDT') } });
      else refusal.details.push({ key: 'web.loans.refusal.quotaPlain', vars: {} });
      refusal.field = 'amount';
      break;
    }
    case 'INSUFFICIENT_BALANCE':
      refusal.field = action === 'apply' ? 'collateralAmount' : 'amount';
      break;
    case 'WRONG_AMOUNT':
      refusal.field = 'amount';
      break;
    case 'PRICE_UNAVAILABLE':
      refusal.details.push({ key: 'web.loans.refusal.noPrice', vars: {} });
      break;
    case 'PAYMENT_PASSWORD_NOT_SET':
      refusal.details.push({ key: 'web.loans.refusal.noPaymentPassword', vars: {} });
      refusal.needsPaymentPassword = true;
      break;
    case 'WRONG_PAYMENT_PASSWORD':
    case 'PAYMENT_PASSWORD_LOCKED':
      refusal.details.push(...paymentPasswordLockDetails(errorKey, data, format.time));
      refusal.field = 'paymentPassword';
      break;
    case 'PARAMETER_ERROR':
      if (data.field === 'agreementVersion' || data.field === 'body.agreementVersion') {
        refusal.details.push({ key: 'web.loans.refusal.termsChanged', vars: {} });
        refusal.reloadAgreement = true;
      }
      break;
    default:
      break;
  }
  return refusal;
}
