import { type EarnProduct, paymentPasswordSchema, redeemEarnSubscriptionContract, subscribeEarnContract } from '@keel/contracts';
import { bodySchema } from '../../shared/forms/index.ts';
import { amountField } from '../assets/amount-field.ts';
import { earnAssetScale, withinRange } from './earn-figures.ts';

// The earn forms (ADR 0027): each builds on its contract's body. The amount is every money form's
// amount field (format, the asset's scale, above zero, within the coin balance) plus the product's
// per-order range, which the server checks too ("amount out of range"); the payment password is the
// contracts' six digits.

/** The form's own problem, carried as the field error's message and put into words by the page. */
export const earnProblems = { outOfRange: 'earn:outOfRange' } as const;

export interface PurchaseLimits {
  product: Pick<EarnProduct, 'asset' | 'minAmount' | 'maxAmount'>;
  /** The coin account's available balance of the asset, when known. */
  available: string | undefined;
}

/** The purchase page's amount, checked against the balance and the product's range read when the form is checked. */
export function purchaseFormSchema(limits: () => PurchaseLimits) {
  return bodySchema(subscribeEarnContract)
    .pick({ amount: true })
    .safeExtend({
      amount: amountField(() => ({ scale: earnAssetScale(limits().product.asset), available: limits().available })).superRefine((amount, issues) => {
        if (amount !== '' && !withinRange(limits().product, amount)) issues.addIssue({ code: 'custom', message: earnProblems.outOfRange });
      }),
    });
}

/** The confirmation sheet of a subscription: the payment password. */
export const subscribePasswordSchema = bodySchema(subscribeEarnContract).pick({ paymentPassword: true }).safeExtend({ paymentPassword: paymentPasswordSchema });

/** The confirmation sheet of an early redemption: the payment password. */
export const redeemPasswordSchema = bodySchema(redeemEarnSubscriptionContract).safeExtend({ paymentPassword: paymentPasswordSchema });

/** A payment password as typed: digits only, six at most. */
export const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);
