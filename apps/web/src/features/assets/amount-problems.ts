import type { AmountInputProblem } from '../../shared/format/decimal.ts';
import type { I18n } from '../../shared/i18n/I18nProvider.tsx';

/** The text of an amount field's problem; `required` differs per form (spec section 5). */
export function amountProblemText(
  t: I18n['t'],
  problem: AmountInputProblem | null,
  context: { asset: string; scale: number; requiredText: string },
): string | undefined {
  switch (problem) {
    case null:
      return undefined;
    case 'required':
      return context.requiredText;
    case 'format':
      return t('web.amount.format');
    case 'tooManyDecimals':
      return t('web.amount.tooManyDecimals', { asset: context.asset, scale: context.scale });
    case 'notPositive':
      return t('web.amount.notPositive');
    case 'aboveAvailable':
      return t('web.amount.aboveAvailable');
  }
}
