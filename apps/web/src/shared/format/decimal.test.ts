import { localeCodes } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import {
  appLocaleSeparators,
  intlLocale,
  separatorsFor,
  addDecimal,
  bpsToPercent,
  compareDecimal,
  DecimalError,
  decimalToString,
  formatDecimal,
  mulDecimal,
  normaliseAmountInput,
  parseDecimal,
  rescale,
  scaleOfText,
  valueInUsdt,
} from './decimal.ts';

describe('parseDecimal and decimalToString', () => {
  it('reads signed decimals exactly and writes them back', () => {
    expect(parseDecimal('12.500000')).toEqual({ minor: 12_500_000n, scale: 6 });
    expect(parseDecimal('-0.00000001')).toEqual({ minor: -1n, scale: 8 });
    expect(parseDecimal('+3')).toEqual({ minor: 3n, scale: 0 });
    for (const text of ['12.500000', '-0.00000001', '0', '5.000000000000000001', '-1234567890123456789.123456789012345678']) {
      expect(decimalToString(parseDecimal(text))).toBe(text);
    }
  });

  it('refuses what is not a plain decimal', () => {
    for (const text of ['', '1e5', '1,5', '.5', '1.', 'NaN', '0x10', '--1', '1'.repeat(90)]) {
      expect(() => parseDecimal(text), text).toThrow(DecimalError);
    }
  });

  it('reads an 18-decimal amount beyond 2^53 without losing a unit', () => {
    const eth = '123456789.123456789123456789';
    expect(parseDecimal(eth).minor).toBe(123456789123456789123456789n);
  });
});

describe('arithmetic', () => {
  it('rescales, rounding towards minus infinity when digits are dropped', () => {
    expect(rescale(parseDecimal('1.239'), 2)).toEqual({ minor: 123n, scale: 2 });
    expect(rescale(parseDecimal('-1.231'), 2)).toEqual({ minor: -124n, scale: 2 });
    expect(rescale(parseDecimal('1.5'), 3)).toEqual({ minor: 1500n, scale: 3 });
  });

  it('adds across scales and compares', () => {
    expect(decimalToString(addDecimal(parseDecimal('0.1'), parseDecimal('0.2')))).toBe('0.3');
    expect(decimalToString(addDecimal(parseDecimal('1.000001'), parseDecimal('-2')))).toBe('-0.999999');
    expect(compareDecimal(parseDecimal('0.10'), parseDecimal('0.1'))).toBe(0);
    expect(compareDecimal(parseDecimal('0.09'), parseDecimal('0.1'))).toBe(-1);
    expect(compareDecimal(parseDecimal('2'), parseDecimal('1.99999999'))).toBe(1);
  });

  it('multiplies at a chosen scale, rounding down', () => {
    expect(decimalToString(mulDecimal(parseDecimal('0.1'), parseDecimal('3'), 2))).toBe('0.30');
    expect(decimalToString(mulDecimal(parseDecimal('0.33333333'), parseDecimal('3'), 6))).toBe('0.999999');
  });
});

describe('valueInUsdt', () => {
  it('converts at the last price to 6 decimals, rounding down', () => {
    expect(decimalToString(valueInUsdt('0.50000000', '64000.12345678'))).toBe('32000.061728');
    expect(decimalToString(valueInUsdt('0.00000001', '64000.00000000'))).toBe('0.000640');
    // 1 wei of ETH is worth less than a millionth of a USDT: shown as nothing, never rounded up.
    expect(decimalToString(valueInUsdt('0.000000000000000001', '3000.00000000'))).toBe('0.000000');
    expect(decimalToString(valueInUsdt('10000.000000', '1'))).toBe('10000.000000');
  });

  it('is exact where a float is not', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004; here the sum of two conversions is exact.
    const sum = addDecimal(valueInUsdt('0.1', '1'), valueInUsdt('0.2', '1'));
    expect(decimalToString(sum)).toBe('0.300000');
    // 5 ETH at a price whose product exceeds 2^53 minor units.
    expect(decimalToString(valueInUsdt('5.000000000000000000', '3123.45678901'))).toBe('15617.283945');
  });
});

describe('bpsToPercent', () => {
  it('writes basis points as a percent', () => {
    expect(bpsToPercent(10)).toBe('0.10');
    expect(bpsToPercent(25)).toBe('0.25');
    expect(bpsToPercent(150)).toBe('1.50');
  });
});

describe('amount input', () => {
  it('takes a lone comma as the decimal point and drops spaces', () => {
    expect(normaliseAmountInput(' 12,5 ')).toBe('12.5');
    expect(normaliseAmountInput('1 000')).toBe('1000');
    expect(normaliseAmountInput('1,000.5')).toBe('1,000.5');
  });
});

describe('formatDecimal', () => {
  it('groups thousands and keeps the significant decimals', () => {
    expect(formatDecimal('1234567.500000', 'en')).toBe('1,234,567.5');
    expect(formatDecimal('1234567.500000', 'en', { minFractionDigits: 2 })).toBe('1,234,567.50');
    expect(formatDecimal('0.000000000000000001', 'en', { maxFractionDigits: 18 })).toBe('0.000000000000000001');
  });

  it('cuts extra decimals towards zero and never shows a negative zero', () => {
    expect(formatDecimal('0.999999999', 'en', { maxFractionDigits: 2 })).toBe('0.99');
    expect(formatDecimal('-0.999999999', 'en', { maxFractionDigits: 2 })).toBe('-0.99');
    expect(formatDecimal('-0.000000001', 'en', { maxFractionDigits: 8 })).toBe('0');
  });

  it('writes signs when asked', () => {
    expect(formatDecimal('12.5', 'en', { signDisplay: 'always' })).toBe('+12.5');
    expect(formatDecimal('-12.5', 'en', { signDisplay: 'always' })).toBe('-12.5');
    expect(formatDecimal('0.00', 'en', { signDisplay: 'always', minFractionDigits: 2 })).toBe('0.00');
  });

  it("uses the locale's separators with Latin digits", () => {
    expect(formatDecimal('1234.5', 'de')).toBe('1.234,5');
    expect(formatDecimal('1234.5', 'fr-pro')).toMatch(/^1\s234,5$/u);
    // Arabic keeps Latin digits, so typed and shown amounts use the same digits.
    expect(formatDecimal('1234.5', 'ar')).toMatch(/^1.234.5$/u);
    expect(formatDecimal('1234.5', 'ar')).not.toMatch(/[٠-٩]/u);
  });

  it('leaves a non-decimal text as it is', () => {
    expect(formatDecimal('n/a', 'en')).toBe('n/a');
  });

  it('knows the scale of an API amount', () => {
    expect(scaleOfText('1.000000')).toBe(6);
    expect(scaleOfText('5')).toBe(0);
  });
});

describe('appLocaleSeparators: the separators known up front are the ones Intl gives', () => {
  it('has a row for every language of the app, equal to Intl.NumberFormat with Latin digits', () => {
    for (const code of localeCodes) {
      const locale = intlLocale(code);
      const parts = new Intl.NumberFormat(locale, { numberingSystem: 'latn', useGrouping: true }).formatToParts(1234567.5);
      const fromIntl = { group: parts.find((part) => part.type === 'group')?.value, decimal: parts.find((part) => part.type === 'decimal')?.value };
      expect(appLocaleSeparators[locale], code).toEqual(fromIntl);
      expect(separatorsFor(locale)).toEqual(fromIntl);
    }
  });

  it('a locale outside the table still gets Intl’s separators', () => {
    expect(separatorsFor('pt-BR')).toEqual({ group: '.', decimal: ',' });
  });
});
