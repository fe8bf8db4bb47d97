import { useCallback } from 'react';
import type { FieldError } from 'react-hook-form';
import { useErrorText } from '../../shared/forms/index.ts';
import { fieldTextOf } from '../../shared/forms/problems.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { amountProblemOfMessage } from './amount-field.ts';

/** The words a money form gives a field's error beyond the shared ones. */
export interface MoneyErrorWords {
  /** The form's own "required" (spec section 5: "A swap needs a quantity", "A transfer needs a target account"). */
  required?: string;
  /** For amount problems: the asset, its scale, and a withdrawal's minimum and fee (already formatted). */
  asset?: string;
  scale?: number;
  min?: string;
  fee?: string;
  /** A form's own rules (a refinement with a message of the form's making), by that message. */
  own?: Record<string, string | undefined>;
}

/**
 * The text of a field error in a money form: an amount problem (`amountField`) in the amount
 * messages' words, an empty field in the form's own "required" words when it has them, a form's
 * own rule in its `own` words, anything else (the contracts' rules, server refusals on a field)
 * as the forms foundation says it.
 */
export function useMoneyErrorText() {
  const { t } = useI18n();
  const errorText = useErrorText();
  return useCallback(
    (error: Pick<FieldError, 'message'> | undefined, words: MoneyErrorWords = {}): string | undefined => {
      if (!error?.message) return undefined;
      const text = fieldTextOf(error.message);
      if (words.required !== undefined && 'key' in text && text.key === 'web.validation.required') return words.required;
      const own = words.own?.[error.message];
      if (own !== undefined) return own;
      switch (amountProblemOfMessage(error.message)) {
        case 'format':
          return t('web.amount.format');
        case 'tooManyDecimals':
          return t('web.amount.tooManyDecimals', { asset: words.asset ?? '', scale: words.scale ?? 0 });
        case 'notPositive':
          return t('web.amount.notPositive');
        case 'aboveAvailable':
          return t('web.amount.aboveAvailable');
        case 'belowMin':
          return t('web.withdraw.belowMin', { min: words.min ?? '' });
        case 'aboveAvailableWithFee':
          return t('web.withdraw.aboveAvailable', { fee: words.fee ?? '' });
        case undefined:
          return errorText(error);
      }
    },
    [t, errorText],
  );
}
