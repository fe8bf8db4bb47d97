import type { ReactNode } from 'react';
import { formatDecimal } from '../format/decimal.ts';
import { formatDateTime } from '../format/time.ts';
import { useI18n } from '../i18n/I18nProvider.tsx';

/**
 * Published terms as the screens state them (the earn and loan screens, the transparency page): a
 * fact of a definition list with the API's raw value in `data-value`, and amounts, percents and
 * times written into sentences in the user's language, isolated left to right (ADR 0011).
 */
export function ValueFact({ label, children, testId, value }: { label: ReactNode; children: ReactNode; testId?: string; value?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId} data-value={value}>
        {children}
      </dd>
    </div>
  );
}

/** Amounts with their unit, rates as percents and times, as text to put into a sentence. */
export function useTermText() {
  const { locale } = useI18n();
  return {
    amount: (value: string, asset?: string) => `\u2066${formatDecimal(value, locale, { minFractionDigits: 2, maxFractionDigits: 8 })}${asset ? ` ${asset}` : ''}\u2069`,
    percent: (value: string) => `\u2066${formatDecimal(value, locale, { maxFractionDigits: 4 })} %\u2069`,
    time: (ms: number) => `\u2066${formatDateTime(new Date(ms).toISOString())}\u2069`,
  };
}
