import { describe, expect, it } from 'vitest';
import {
  C2C_CONFIRM_WINDOW_MS,
  type C2cActor,
  type C2cCommand,
  type C2cKind,
  type C2cState,
  type C2cStatus,
  c2cCommandActor,
  c2cStatuses,
  c2cTransition,
  fiatOfUsdt,
  type MerchantCandidate,
  nextMerchant,
  usdtOfFiat,
} from './c2c.ts';

// The C2C state machines, cell by cell: every status × every command, for both kinds, once before
// every deadline and once after all of them. A cell reads `status:effect` for a step taken, or
// `!problem` for a refusal. Each command is sent by the first actor allowed to send it (a command
// nobody may send, such as a deposit's confirm_timeout, is sent by the system and refused).

const COMMANDS: readonly [string, C2cCommand][] = [
  ['offer', { kind: 'offer', merchantId: 7n }],
  ['accept', { kind: 'accept' }],
  ['decline', { kind: 'decline' }],
  ['offer_lapsed', { kind: 'offer_lapsed' }],
  ['match_timeout', { kind: 'match_timeout' }],
  ['mark_paid', { kind: 'mark_paid' }],
  ['payment_timeout', { kind: 'payment_timeout' }],
  ['confirm', { kind: 'confirm' }],
  ['cancel', { kind: 'cancel' }],
  ['appeal', { kind: 'appeal', by: 'user' }],
  ['confirm_timeout', { kind: 'confirm_timeout' }],
  ['resolve_complete', { kind: 'resolve', outcome: 'complete' }],
  ['resolve_fail', { kind: 'resolve', outcome: 'fail' }],
];

const CREATED_MS = 1_000_000;
const IN_WINDOW_MS = CREATED_MS + 10_000;
const AFTER_ALL_MS = CREATED_MS + 24 * 3_600_000;

function stateOf(kind: C2cKind, status: C2cStatus): C2cState {
  return {
    kind,
    status,
    matchDeadlineMs: CREATED_MS + 300_000,
    offerDeadlineMs: status === 'offered' ? CREATED_MS + 60_000 : null,
    paymentDeadlineMs: status === 'awaiting_payment' ? CREATED_MS + 300_000 : null,
    paidAtMs: status === 'paid' || status === 'appealing' ? CREATED_MS + 5_000 : null,
  };
}

function cell(kind: C2cKind, status: C2cStatus, command: C2cCommand, nowMs: number): string {
  const actor: C2cActor = c2cCommandActor[kind][command.kind][0] ?? 'system';
  const outcome = c2cTransition(stateOf(kind, status), actor, command, nowMs);
  return outcome.ok ? `${outcome.status}:${outcome.effect}` : `!${outcome.problem}`;
}

const ws = '!wrong_state';
const nys = '!not_your_step';

/** Rows in c2cStatuses order; columns in COMMANDS order. */
const tables: Record<C2cKind, Record<'inWindow' | 'afterAll', Record<C2cStatus, string[]>>> = {
  deposit: {
    inWindow: {
      matching: ['offered:none', ws, ws, ws, '!too_early', ws, ws, ws, 'failed:none', ws, nys, ws, ws],
      offered: [ws, 'awaiting_payment:hold_merchant_float', 'matching:none', '!too_early', '!too_early', ws, ws, ws, 'failed:none', ws, nys, ws, ws],
      awaiting_payment: [ws, ws, ws, ws, ws, 'paid:none', '!too_early', ws, 'failed:release_merchant_hold', ws, nys, ws, ws],
      paid: [ws, ws, ws, ws, ws, ws, ws, 'succeeded:pay_user', ws, 'appealing:none', nys, ws, ws],
      appealing: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, nys, 'succeeded:pay_user', 'failed:release_merchant_hold'],
      succeeded: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, nys, ws, ws],
      failed: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, nys, ws, ws],
    },
    afterAll: {
      matching: ['!too_late', ws, ws, ws, 'failed:none', ws, ws, ws, 'failed:none', ws, nys, ws, ws],
      offered: [ws, '!too_late', 'matching:none', 'matching:none', 'failed:none', ws, ws, ws, 'failed:none', ws, nys, ws, ws],
      awaiting_payment: [ws, ws, ws, ws, ws, '!too_late', 'failed:release_merchant_hold', ws, 'failed:release_merchant_hold', ws, nys, ws, ws],
      paid: [ws, ws, ws, ws, ws, ws, ws, 'succeeded:pay_user', ws, 'appealing:none', nys, ws, ws],
      appealing: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, nys, 'succeeded:pay_user', 'failed:release_merchant_hold'],
      succeeded: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, nys, ws, ws],
      failed: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, nys, ws, ws],
    },
  },
  withdrawal: {
    inWindow: {
      matching: ['offered:none', ws, ws, ws, '!too_early', ws, ws, ws, 'failed:release_user_hold', ws, ws, ws, ws],
      offered: [ws, 'awaiting_payment:none', 'matching:none', '!too_early', '!too_early', ws, ws, ws, 'failed:release_user_hold', ws, ws, ws, ws],
      awaiting_payment: [ws, ws, ws, ws, ws, 'paid:none', '!too_early', ws, ws, ws, ws, ws, ws],
      paid: [ws, ws, ws, ws, ws, ws, ws, 'succeeded:pay_merchant', ws, 'appealing:none', '!too_early', ws, ws],
      appealing: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, 'succeeded:pay_merchant', 'failed:release_user_hold'],
      succeeded: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws],
      failed: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws],
    },
    afterAll: {
      matching: ['!too_late', ws, ws, ws, 'failed:release_user_hold', ws, ws, ws, 'failed:release_user_hold', ws, ws, ws, ws],
      offered: [ws, '!too_late', 'matching:none', 'matching:none', 'failed:release_user_hold', ws, ws, ws, 'failed:release_user_hold', ws, ws, ws, ws],
      awaiting_payment: [ws, ws, ws, ws, ws, '!too_late', 'failed:release_user_hold', ws, ws, ws, ws, ws, ws],
      paid: [ws, ws, ws, ws, ws, ws, ws, 'succeeded:pay_merchant', ws, 'appealing:none', 'appealing:none', ws, ws],
      appealing: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, 'succeeded:pay_merchant', 'failed:release_user_hold'],
      succeeded: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws],
      failed: [ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws, ws],
    },
  },
};

describe('the C2C state machines, cell by cell', () => {
  for (const kind of ['deposit', 'withdrawal'] as const) {
    for (const [moment, nowMs] of [
      ['inWindow', IN_WINDOW_MS],
      ['afterAll', AFTER_ALL_MS],
    ] as const) {
      for (const status of c2cStatuses) {
        it(`${kind}, ${moment}, from ${status}`, () => {
          const expected = tables[kind][moment][status];
          expect(expected).toHaveLength(COMMANDS.length);
          const actual = COMMANDS.map(([, command]) => cell(kind, status, command, nowMs));
          expect(Object.fromEntries(COMMANDS.map(([name], index) => [name, actual[index]]))).toEqual(
            Object.fromEntries(COMMANDS.map(([name], index) => [name, expected[index]])),
          );
        });
      }
    }
  }
});

describe('who may send each command', () => {
  it('refuses every command from an actor it does not belong to, whatever the state', () => {
    const actors: C2cActor[] = ['user', 'merchant', 'system', 'support'];
    for (const kind of ['deposit', 'withdrawal'] as const) {
      for (const [, command] of COMMANDS) {
        for (const actor of actors.filter((each) => !c2cCommandActor[kind][command.kind].includes(each))) {
          for (const status of c2cStatuses) {
            expect(c2cTransition(stateOf(kind, status), actor, command, IN_WINDOW_MS), `${kind} ${command.kind} by ${actor} from ${status}`).toEqual({
              ok: false,
              problem: 'not_your_step',
            });
          }
        }
      }
    }
  });

  it('the payer marks paid and the payee confirms: the user pays a deposit, the merchant a withdrawal', () => {
    expect(c2cCommandActor.deposit.mark_paid).toEqual(['user']);
    expect(c2cCommandActor.deposit.confirm).toEqual(['merchant']);
    expect(c2cCommandActor.withdrawal.mark_paid).toEqual(['merchant']);
    expect(c2cCommandActor.withdrawal.confirm).toEqual(['user']);
  });

  it('a paid withdrawal the user leaves unanswered goes to support exactly at the published time, never to the merchant', () => {
    const paid = stateOf('withdrawal', 'paid');
    const due = paid.paidAtMs! + C2C_CONFIRM_WINDOW_MS;
    expect(c2cTransition(paid, 'system', { kind: 'confirm_timeout' }, due - 1)).toEqual({ ok: false, problem: 'too_early' });
    expect(c2cTransition(paid, 'system', { kind: 'confirm_timeout' }, due)).toEqual({ ok: true, status: 'appealing', effect: 'none' });
  });

  it('an offer can be accepted until the earlier of its own deadline and the end of matching', () => {
    const offered = { ...stateOf('deposit', 'offered'), offerDeadlineMs: CREATED_MS + 400_000 };
    expect(c2cTransition(offered, 'merchant', { kind: 'accept' }, offered.matchDeadlineMs - 1)).toMatchObject({ ok: true, status: 'awaiting_payment' });
    expect(c2cTransition(offered, 'merchant', { kind: 'accept' }, offered.matchDeadlineMs)).toEqual({ ok: false, problem: 'too_late' });
  });
});

describe('nextMerchant: the published fair rule', () => {
  const merchant = (id: number, overrides: Partial<MerchantCandidate> = {}): MerchantCandidate => ({
    merchantId: BigInt(id),
    online: true,
    priceFiatMinor: 9_000n,
    minUsdtMinor: 10_000_000n,
    maxUsdtMinor: 1_000_000_000n,
    freeFloatMinor: 500_000_000n,
    lastMatchedAtMs: null,
    ...overrides,
  });
  const usdt100 = 100_000_000n;

  it('a deposit goes to the lowest price, a withdrawal to the highest', () => {
    const candidates = [merchant(1, { priceFiatMinor: 9_100n }), merchant(2, { priceFiatMinor: 8_900n }), merchant(3, { priceFiatMinor: 9_000n })];
    expect(nextMerchant('deposit', usdt100, candidates, new Set())?.merchantId).toBe(2n);
    expect(nextMerchant('withdrawal', usdt100, candidates, new Set())?.merchantId).toBe(1n);
  });

  it('at one price: never matched first, then least recently matched, then the lowest id', () => {
    const candidates = [merchant(4, { lastMatchedAtMs: 500 }), merchant(3, { lastMatchedAtMs: 100 }), merchant(9), merchant(8)];
    expect(nextMerchant('deposit', usdt100, candidates, new Set())?.merchantId).toBe(8n);
    expect(nextMerchant('deposit', usdt100, candidates, new Set([8n, 9n]))?.merchantId).toBe(3n);
    expect(nextMerchant('deposit', usdt100, candidates, new Set([8n, 9n, 3n]))?.merchantId).toBe(4n);
  });

  it('leaves out the offline, the already tried, those whose limits do not take the amount, and — deposits only — a float that does not cover it', () => {
    const candidates = [
      merchant(1, { online: false, priceFiatMinor: 1n }),
      merchant(2, { priceFiatMinor: 2n }),
      merchant(3, { priceFiatMinor: 3n, minUsdtMinor: usdt100 + 1n }),
      merchant(4, { priceFiatMinor: 4n, maxUsdtMinor: usdt100 - 1n }),
      merchant(5, { priceFiatMinor: 5n, freeFloatMinor: usdt100 - 1n }),
      merchant(6, { priceFiatMinor: 6n }),
    ];
    expect(nextMerchant('deposit', usdt100, candidates, new Set([2n]))?.merchantId).toBe(6n);
    // A withdrawal adds to the merchant's float: its free float does not matter.
    expect(nextMerchant('withdrawal', usdt100, candidates.map((each) => ({ ...each, priceFiatMinor: 1n })), new Set([2n]))?.merchantId).toBe(5n);
    expect(nextMerchant('deposit', usdt100, [merchant(1, { online: false })], new Set())).toBeNull();
  });
});

describe('converting at a merchant’s price, in the merchant’s favour', () => {
  // 90.07 fiat per USDT.
  const price = 9_007n;

  it('a deposit: the user receives the floor of what their fiat buys, and pays the ceil of the USDT they ask for', () => {
    // 1,000.00 fiat / 90.07 = 11.102475… USDT
    expect(usdtOfFiat('deposit', 100_000n, price)).toBe(11_102_475n);
    // 11.102476 USDT × 90.07 = 1000.00001… → 1,000.01
    expect(fiatOfUsdt('deposit', 11_102_476n, price)).toBe(100_001n);
  });

  it('a withdrawal: the user gives the ceil of the USDT the fiat costs, and is paid the floor of the fiat their USDT is worth', () => {
    expect(usdtOfFiat('withdrawal', 100_000n, price)).toBe(11_102_476n);
    expect(fiatOfUsdt('withdrawal', 11_102_476n, price)).toBe(100_000n);
  });

  it('refuses zero and negative amounts and prices', () => {
    expect(() => usdtOfFiat('deposit', 0n, price)).toThrow(RangeError);
    expect(() => fiatOfUsdt('withdrawal', 1n, 0n)).toThrow(RangeError);
  });
});
