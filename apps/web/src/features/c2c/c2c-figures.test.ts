import { C2C_CONFIRM_WINDOW_MS, C2C_PAYMENT_WINDOW_MS, c2cStatuses } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { catalogues } from '@keel/locales';
import {
  bankDetailIssues,
  bankDetailsValues,
  c2cActions,
  c2cAmountProblem,
  c2cCountryOf,
  c2cDeadline,
  c2cFigures,
  c2cMessageKey,
  c2cOrderPath,
  c2cStateKey,
  c2cWithdrawalPath,
  changedPriceOf,
  clockText,
  emptyBankDetails,
  formatCountdown,
  priceMinorOf,
  requiredBankFields,
  unfinishedOrderIdOf,
  usesIban,
} from './c2c-figures.ts';

const MINUTE = 60_000;

describe('c2cFigures: the live conversion, rounded in the merchant’s favour', () => {
  it('a deposit: the USDT of a fiat amount rounded down, the fiat of a USDT amount rounded up', () => {
    // 100 EUR at 0.92 EUR/USDT is 108.695652… USDT: the user receives the floor.
    expect(c2cFigures('deposit', 'fiat', '100', '0.92')).toMatchObject({ usdt: '108.695652', fiat: '100.00' });
    // 100 USDT at 0.92 is 92 EUR exactly; 1 USDT at 0.93 is 0.93; 0.000001 USDT at 0.92 is 0.00000092 EUR: the user pays one cent.
    expect(c2cFigures('deposit', 'usdt', '100', '0.92')).toMatchObject({ usdt: '100.000000', fiat: '92.00' });
    expect(c2cFigures('deposit', 'usdt', '0.000001', '0.92')).toMatchObject({ fiat: '0.01' });
    expect(c2cFigures('deposit', 'usdt', '10.5', '3.33')).toMatchObject({ fiat: '34.97' }); // 34.965 → up
  });

  it('a withdrawal: the USDT for a fiat amount rounded up, the fiat of a USDT amount rounded down', () => {
    expect(c2cFigures('withdrawal', 'fiat', '100', '0.92')).toMatchObject({ usdt: '108.695653', fiat: '100.00' });
    expect(c2cFigures('withdrawal', 'usdt', '10.5', '3.33')).toMatchObject({ usdt: '10.500000', fiat: '34.96' }); // 34.965 → down
    expect(c2cFigures('withdrawal', 'usdt', '0.000001', '0.92')).toMatchObject({ fiat: '0.00', fiatMinor: 0n });
  });

  it('nothing while the amount is not a positive amount at its scale, or there is no price', () => {
    expect(c2cFigures('deposit', 'fiat', '1.005', '0.92')).toBeNull();
    expect(c2cFigures('deposit', 'usdt', '1.0000001', '0.92')).toBeNull();
    expect(c2cFigures('deposit', 'usdt', '0', '0.92')).toBeNull();
    expect(c2cFigures('deposit', 'usdt', 'abc', '0.92')).toBeNull();
    expect(c2cFigures('deposit', 'usdt', '10', null)).toBeNull();
    expect(c2cFigures('deposit', 'usdt', '10', '0')).toBeNull();
    expect(priceMinorOf('1520.5')).toBe(152050n);
  });
});

describe('c2cAmountProblem', () => {
  const deposit = { kind: 'deposit', amountIn: 'usdt', price: '0.92', minUsdt: '10.000000', maxUsdt: '1000.000000' } as const;

  it('the format at the scale of what is typed', () => {
    expect(c2cAmountProblem('1.5.', deposit)).toBe('format');
    expect(c2cAmountProblem('10.1234567', deposit)).toBe('tooManyDecimals');
    expect(c2cAmountProblem('10.123', { ...deposit, amountIn: 'fiat' })).toBe('tooManyDecimals');
    expect(c2cAmountProblem('0', deposit)).toBe('notPositive');
  });

  it('the USDT it makes against the merchants’ limits, at the edges', () => {
    expect(c2cAmountProblem('10', deposit)).toBeNull();
    expect(c2cAmountProblem('9.999999', deposit)).toBe('belowMin');
    expect(c2cAmountProblem('1000', deposit)).toBeNull();
    expect(c2cAmountProblem('1000.000001', deposit)).toBe('aboveMax');
    // In fiat: 9.20 EUR buys exactly 10 USDT; 9.19 buys 9.989130.
    expect(c2cAmountProblem('9.20', { ...deposit, amountIn: 'fiat' })).toBeNull();
    expect(c2cAmountProblem('9.19', { ...deposit, amountIn: 'fiat' })).toBe('belowMin');
    // A cent at a price of 20,000 buys less than a millionth of a USDT.
    expect(c2cAmountProblem('0.01', { ...deposit, amountIn: 'fiat', price: '20000.00', minUsdt: null })).toBe('tooSmall');
  });

  it('a withdrawal also within the fiat account’s available USDT; unknown limits are not judged', () => {
    const withdrawal = { kind: 'withdrawal', amountIn: 'fiat', price: '0.92', minUsdt: null, maxUsdt: null, available: '100.000000' } as const;
    // 92 EUR costs exactly 100 USDT; 92.01 costs 100.010870 (rounded up).
    expect(c2cAmountProblem('92', withdrawal)).toBeNull();
    expect(c2cAmountProblem('92.01', withdrawal)).toBe('aboveAvailable');
    expect(c2cAmountProblem('5000', { ...withdrawal, price: null })).toBeNull();
  });
});

describe('states in the spec’s words', () => {
  it('every status has the spec’s word and a message for its user, in the catalogue', () => {
    const keys = new Set(Object.keys(catalogues.en));
    expect(c2cStatuses.map(c2cStateKey)).toEqual([
      'web.c2c.state.matching',
      'web.c2c.state.waiting',
      'web.c2c.state.toBePaid',
      'web.c2c.state.toBeReviewed',
      'web.c2c.state.toBeReviewed',
      'web.c2c.state.success',
      'web.c2c.state.failed',
    ]);
    for (const kind of ['deposit', 'withdrawal'] as const) {
      for (const status of c2cStatuses) {
        for (const failReason of ['unmatched', 'unpaid', 'cancelled', 'support'] as const) {
          const key = c2cMessageKey({ kind, status, failReason: status === 'failed' ? failReason : null });
          expect(keys.has(key), key).toBe(true);
        }
        expect(keys.has(c2cStateKey(status))).toBe(true);
      }
    }
    expect(c2cMessageKey({ kind: 'withdrawal', status: 'failed', failReason: 'unpaid' })).toBe('web.c2c.msg.withdrawal.failed.unpaid');
  });
});

describe('c2cDeadline', () => {
  const base = { kind: 'deposit' as const, createdAtMs: 1_000_000, matchDeadlineMs: 1_000_000 + 5 * MINUTE, paymentDeadlineMs: null, confirmDeadlineMs: null };

  it('matching (and offered) count down to the end of matching, never beyond its window', () => {
    expect(c2cDeadline({ ...base, status: 'matching' }, 1_000_000 + MINUTE)).toEqual({ kind: 'match', deadlineMs: base.matchDeadlineMs, remainingMs: 4 * MINUTE });
    expect(c2cDeadline({ ...base, status: 'offered' }, 1_000_000 + 6 * MINUTE)?.remainingMs).toBe(0);
    // A device clock ten minutes behind still shows at most the window.
    expect(c2cDeadline({ ...base, status: 'matching' }, 1_000_000 - 10 * MINUTE)?.remainingMs).toBe(5 * MINUTE);
  });

  it('to be paid counts to the payment deadline; a paid withdrawal to its confirmation deadline', () => {
    const paymentDeadlineMs = 2_000_000 + C2C_PAYMENT_WINDOW_MS;
    expect(c2cDeadline({ ...base, status: 'awaiting_payment', paymentDeadlineMs }, 2_000_000)).toEqual({ kind: 'payment', deadlineMs: paymentDeadlineMs, remainingMs: C2C_PAYMENT_WINDOW_MS });
    const confirmDeadlineMs = 3_000_000 + C2C_CONFIRM_WINDOW_MS;
    expect(c2cDeadline({ ...base, kind: 'withdrawal', status: 'paid', confirmDeadlineMs }, 3_000_000 + MINUTE)).toEqual({
      kind: 'confirm',
      deadlineMs: confirmDeadlineMs,
      remainingMs: C2C_CONFIRM_WINDOW_MS - MINUTE,
    });
    expect(c2cDeadline({ ...base, status: 'paid' }, 0)).toBeNull();
    expect(c2cDeadline({ ...base, status: 'succeeded' }, 0)).toBeNull();
  });
});

describe('c2cActions', () => {
  const at = (kind: 'deposit' | 'withdrawal', status: (typeof c2cStatuses)[number], paymentDeadlineMs: number | null = null, now = 0) =>
    c2cActions({ kind, status, paymentDeadlineMs }, now);

  it('a deposit: cancel until paid, mark paid within the window, appeal once paid', () => {
    expect(at('deposit', 'matching')).toEqual({ cancel: true, markPaid: false, confirm: false, appeal: false });
    expect(at('deposit', 'offered')).toEqual({ cancel: true, markPaid: false, confirm: false, appeal: false });
    expect(at('deposit', 'awaiting_payment', 1000, 999)).toEqual({ cancel: true, markPaid: true, confirm: false, appeal: false });
    expect(at('deposit', 'awaiting_payment', 1000, 1000).markPaid).toBe(false);
    expect(at('deposit', 'paid')).toEqual({ cancel: false, markPaid: false, confirm: false, appeal: true });
    expect(at('deposit', 'appealing')).toEqual({ cancel: false, markPaid: false, confirm: false, appeal: false });
  });

  it('a withdrawal: cancel only before a merchant accepted; confirm or appeal once paid', () => {
    expect(at('withdrawal', 'offered').cancel).toBe(true);
    expect(at('withdrawal', 'awaiting_payment', 1000, 0)).toEqual({ cancel: false, markPaid: false, confirm: false, appeal: false });
    expect(at('withdrawal', 'paid')).toEqual({ cancel: false, markPaid: false, confirm: true, appeal: true });
    expect(at('withdrawal', 'succeeded')).toEqual({ cancel: false, markPaid: false, confirm: false, appeal: false });
  });
});

describe('times, paths, refusal data', () => {
  it('formats countdowns and clock times', () => {
    expect(formatCountdown(5 * MINUTE)).toBe('5:00');
    expect(formatCountdown(61_001)).toBe('1:02');
    expect(formatCountdown(-5)).toBe('0:00');
    expect(formatCountdown(31 * MINUTE + 5000)).toBe('31:05');
    expect(formatCountdown(3_600_000)).toBe('1:00:00');
    expect(clockText(new Date(2026, 0, 2, 7, 5).getTime())).toBe('07:05');
  });

  it('routes', () => {
    expect(c2cOrderPath({ id: '7', kind: 'deposit' })).toBe('/assets/C2CDeposit/7');
    expect(c2cOrderPath({ id: '7', kind: 'withdrawal' })).toBe('/assets/C2CWithdrawalInfo/7');
    expect(c2cWithdrawalPath('DE')).toBe('/assets/C2CWithdrawal/DE');
    expect(c2cWithdrawalPath('XX')).toBe('/assets/C2CWithdrawal/select');
    expect(c2cWithdrawalPath()).toBe('/assets/C2CWithdrawal/select');
    expect(c2cCountryOf('de')).toBe('DE');
    expect(c2cCountryOf('select')).toBeNull();
  });

  it('reads the refusals’ data', () => {
    expect(unfinishedOrderIdOf({ orderId: '42' })).toBe('42');
    expect(unfinishedOrderIdOf({ orderId: 42 })).toBeNull();
    expect(unfinishedOrderIdOf(null)).toBeNull();
    expect(changedPriceOf({ price: '0.95' })).toBe('0.95');
    expect(changedPriceOf({ price: 'x' })).toBeNull();
  });
});

describe('bank details', () => {
  const german = { ...emptyBankDetails, payeeName: 'Ana Lee', bankName: 'Commerzbank', accountNumber: 'DE89 3704 0044 0532 0130 00', swiftCode: 'COBADEFF' };

  it('the domain’s problems, as the rules the server names them by, in the form’s order', () => {
    expect(bankDetailIssues('DE', german)).toEqual([]);
    expect(bankDetailIssues('DE', { ...german, accountNumber: 'DE89 3704 0044 0532 0130 01', swiftCode: 'COBAFRPP', cardNumber: '4111 1111 1111 1112' })).toEqual([
      { field: 'cardNumber', rule: 'cardNumber' },
      { field: 'accountNumber', rule: 'iban' },
      { field: 'swiftCode', rule: 'swiftCode' },
    ]);
    expect(bankDetailIssues('US', { ...emptyBankDetails, payeeName: 'A', bankName: 'B', accountNumber: '12' })).toEqual([
      { field: 'routingNumber', rule: 'required' },
      { field: 'accountNumber', rule: 'bankAccountNumber' },
    ]);
    expect(bankDetailIssues('US', { ...emptyBankDetails, payeeName: 'A', bankName: 'B', accountNumber: '123456789', routingNumber: '021000022' })).toEqual([
      { field: 'routingNumber', rule: 'routingNumber' },
    ]);
    expect(bankDetailIssues('JP', emptyBankDetails).map((issue) => issue.field)).toEqual(['payeeName', 'bankName', 'accountNumber']);
  });

  it('which fields a country needs, and whether its account number is an IBAN', () => {
    expect([...requiredBankFields('US')].sort()).toEqual(['accountNumber', 'bankName', 'payeeName', 'routingNumber']);
    expect(requiredBankFields('DE').has('routingNumber')).toBe(false);
    expect(usesIban('DE')).toBe(true);
    expect(usesIban('JP')).toBe(false);
  });

  it('saved details become the form’s values, every field a text', () => {
    expect(bankDetailsValues(null)).toEqual(emptyBankDetails);
    expect(bankDetailsValues({ payeeName: 'Ana', remarks: undefined })).toEqual({ ...emptyBankDetails, payeeName: 'Ana' });
  });
});
