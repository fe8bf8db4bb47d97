import { formatDecimal } from '../format/decimal.ts';
import { useI18n } from '../i18n/I18nProvider.tsx';

interface AmountProps {
  /** A decimal string as the API sends it. */
  value: string;
  /** Asset code written after the number (USDT, BTC…). */
  unit?: string;
  /** Fewest decimals (default 2). */
  min?: number;
  /** Most decimals; the rest is cut, never rounded up (default: all of them). */
  max?: number;
  /** Writes "+" before positive values and colours the number by its sign. */
  signed?: boolean;
  /** Written right after the number, inside the same left-to-right run (e.g. "%"). */
  suffix?: string;
  testId?: string;
  className?: string;
}

/**
 * A number for display: exact, grouped the locale's way, and isolated left-to-right so that its
 * sign, digits and unit keep their order inside right-to-left text (ADR 0011).
 */
export function Amount({ value, unit, min = 2, max = 18, signed = false, suffix, testId, className }: AmountProps) {
  const { locale } = useI18n();
  const text = formatDecimal(value, locale, { minFractionDigits: min, maxFractionDigits: max, signDisplay: signed ? 'always' : 'auto' });
  const tone = signed ? (text.startsWith('+') ? ' num-up' : text.startsWith('-') ? ' num-down' : '') : '';
  return (
    <bdi dir="ltr" className={`num${tone}${className ? ` ${className}` : ''}`} data-testid={testId}>
      {text}
      {suffix}
      {unit && <span className="num-unit"> {unit}</span>}
    </bdi>
  );
}
