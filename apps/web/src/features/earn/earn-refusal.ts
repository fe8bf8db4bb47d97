import { type ErrorKey, errorKeyFromMsg } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { paymentPasswordLockDetails, type RefusalDetail, type RefusalFormat } from '../wallet/refusal.ts';

/**
 * What a refused subscription or redemption tells the user beyond the catalogue message: the rule
 * and its figures from the answer's `data` (ADR 0035: "purchase limit exceeded" names whose quota,
 * or that the treasury cannot cover one more promise). Pure, so the wording is tested.
 */
export interface EarnRefusal {
  errorKey: ErrorKey | undefined;
  details: RefusalDetail[];
  /** The field the refusal is about. */
  field?: 'amount' | 'paymentPassword';
  /** Set the payment password first. */
  needsPaymentPassword?: boolean;
  /** The terms changed or were never acknowledged: the page reloads the product and asks again. */
  reloadTerms?: boolean;
}

type Data = Record<string, unknown>;
const asData = (data: unknown): Data => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {});
const decimal = (value: unknown): string | undefined => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? value : undefined);

const quotaKeys: Record<string, MessageKey> = {
  user_quota: 'web.earn.refusal.userQuota',
  total_quota: 'web.earn.refusal.totalQuota',
  treasury_cover: 'web.earn.refusal.treasuryCover',
};

export function describeEarnRefusal(message: string, rawData: unknown, format: RefusalFormat, asset: string): EarnRefusal {
  const errorKey = errorKeyFromMsg(message);
  const data = asData(rawData);
  const refusal: EarnRefusal = { errorKey, details: [] };
  switch (errorKey) {
    case 'PURCHASE_LIMIT_EXCEEDED': {
      const key = typeof data.rule === 'string' ? quotaKeys[data.rule] : undefined;
      if (key) refusal.details.push({ key, vars: {} });
      refusal.field = 'amount';
      break;
    }
    case 'AMOUNT_OUT_OF_RANGE': {
      const min = decimal(data.min);
      const max = decimal(data.max);
      const unit = typeof data.asset === 'string' ? data.asset : asset;
      if (min !== undefined && max !== undefined) refusal.details.push({ key: 'web.earn.refusal.range', vars: { min: format.amount(min, unit), max: format.amount(max, unit) } });
      refusal.field = 'amount';
      break;
    }
    case 'INSUFFICIENT_BALANCE':
    case 'WRONG_AMOUNT':
      refusal.field = 'amount';
      break;
    case 'PAYMENT_PASSWORD_NOT_SET':
      refusal.details.push({ key: 'web.earn.refusal.noPaymentPassword', vars: {} });
      refusal.needsPaymentPassword = true;
      break;
    case 'WRONG_PAYMENT_PASSWORD':
    case 'PAYMENT_PASSWORD_LOCKED':
      refusal.details.push(...paymentPasswordLockDetails(errorKey, data, format.time));
      refusal.field = 'paymentPassword';
      break;
    case 'RISK_DISCLOSURE_REQUIRED':
      refusal.reloadTerms = true;
      break;
    case 'PARAMETER_ERROR':
      if (data.field === 'termsVersion') {
        refusal.details.push({ key: 'web.earn.refusal.termsChanged', vars: {} });
        refusal.reloadTerms = true;
      }
      break;
    default:
      break;
  }
  return refusal;
}
