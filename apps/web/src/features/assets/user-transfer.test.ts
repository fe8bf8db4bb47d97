import { errorCatalogue } from '@keel/contracts';
import { formatAmount, parseAmount } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { compareDecimal, parseDecimal } from '../../shared/format/decimal.ts';
import { amountProblem } from './amount-field.ts';
import { maxUserTransfer, percentText, recipientProblemOf, recipientQuery, userTransferFee, userTransferFigures } from './user-transfer.ts';

describe('userTransferFigures', () => {
  it('adds the 0.10 % fee on top, at the asset scale (the spec example: 10 USDT costs 10.01)', () => {
    expect(userTransferFigures('10', 6)).toEqual({ amount: '10.000000', fee: '0.010000', total: '10.010000' });
    expect(userTransferFigures('1234.5', 6)).toEqual({ amount: '1234.500000', fee: '1.234500', total: '1235.734500' });
  });

  it('rounds the fee up to the minor unit, so it is never below the rate and never zero', () => {
    // 0.10 % of 0.000001 USDT is 0.000000001: one minor unit.
    expect(userTransferFigures('0.000001', 6)).toEqual({ amount: '0.000001', fee: '0.000001', total: '0.000002' });
    // 1.0005 USDT × 0.001 = 0.0010005 → 0.001001.
    expect(userTransferFigures('1.0005', 6)?.fee).toBe('0.001001');
    expect(userTransferFigures('0.12345678', 8)).toEqual({ amount: '0.12345678', fee: '0.00012346', total: '0.12358024' });
  });

  it('is exact where a JS number would not be (18 decimals of ETH)', () => {
    expect(userTransferFigures('123456789.123456789123456789', 18)).toEqual({
      amount: '123456789.123456789123456789',
      fee: '123456.789123456789123457',
      total: '123580245.912580245912580246',
    });
  });

  it('is null while the amount is not a positive amount at the scale', () => {
    expect(userTransferFigures('', 6)).toBeNull();
    expect(userTransferFigures('0', 6)).toBeNull();
    expect(userTransferFigures('abc', 6)).toBeNull();
    expect(userTransferFigures('1.0000001', 6)).toBeNull();
    expect(userTransferFigures('-1', 6)).toBeNull();
  });
});

describe('maxUserTransfer', () => {
  it('leaves exactly room for the fee', () => {
    expect(maxUserTransfer('10.010000', 6)).toBe('10.000000');
    expect(maxUserTransfer('1001', 6)).toBe('1000.000000');
    expect(maxUserTransfer('0.00000200', 8)).toBe('0.00000199');
  });

  it('is the largest amount whose total fits, whatever the rounding', () => {
    for (const available of ['1', '7.777777', '1000.000001', '0.000005', '99999.999999', '0.001002']) {
      const max = maxUserTransfer(available, 6);
      expect(max, available).not.toBeNull();
      const limits = { scale: 6, available, feeFor: (amount: string) => userTransferFee(amount, 6) };
      expect(compareDecimal(parseDecimal(userTransferFigures(max!, 6)!.total), parseDecimal(available)), available).toBeLessThanOrEqual(0);
      expect(amountProblem(max!, limits), available).toBeNull();
      // One minor unit more no longer fits.
      const next = formatAmount(parseAmount(max!, 6) + 1n, 6);
      expect(amountProblem(next, limits), available).toBe('aboveAvailableWithFee');
    }
  });

  it('is null when not even the smallest amount fits', () => {
    expect(maxUserTransfer('0.000001', 6)).toBeNull();
    expect(maxUserTransfer('0', 6)).toBeNull();
    expect(maxUserTransfer('oops', 6)).toBeNull();
  });
});

describe('the amount field with the transfer fee', () => {
  it('refuses an amount whose amount + fee is above the balance', () => {
    const limits = { scale: 6, available: '10.010000', feeFor: (amount: string) => userTransferFee(amount, 6) };
    expect(amountProblem('10', limits)).toBeNull();
    expect(amountProblem('10.000001', limits)).toBe('aboveAvailableWithFee');
    expect(amountProblem('10.01', limits)).toBe('aboveAvailableWithFee');
  });
});

describe('percentText', () => {
  it('writes the published percent with two decimals in the language, isolated left to right', () => {
    expect(percentText('0.10', 'en')).toBe('\u20660.10\u2069');
    expect(percentText('0.1', 'de')).toBe('\u20660,10\u2069');
    expect(percentText('0.10', 'ar')).toBe('\u20660.10\u2069');
  });
});

describe('recipientProblemOf', () => {
  it('names the refusals a lookup can meet', () => {
    expect(recipientProblemOf(errorCatalogue.RECORD_NOT_FOUND.msg)).toBe('notFound');
    expect(recipientProblemOf(errorCatalogue.CANNOT_TRANSFER_TO_SELF.msg)).toBe('self');
    expect(recipientProblemOf(errorCatalogue.TOO_MANY_REQUESTS.msg)).toBe('tooManyRequests');
    expect(recipientProblemOf(errorCatalogue.SYSTEM_ERROR.msg)).toBe('other');
  });

  it('looks a recipient up as typed, without surrounding spaces', () => {
    expect(recipientQuery('  alice ')).toBe('alice');
  });
});
