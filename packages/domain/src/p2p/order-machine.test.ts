import { describe, expect, it } from 'vitest';
import { DEFAULT_VIP_LEVELS, vipTermsOf } from '../vip/levels.ts';
import {
  CANCELLATION_WINDOW_MS,
  CANCELLATIONS_BEFORE_RESTRICTION,
  holdsEscrow,
  ORDERING_RESTRICTION_MS,
  orderingRestrictedUntilMs,
  orderQuantityProblem,
  P2P_FEE_BPS,
  type P2pCommand,
  type P2pEffect,
  type P2pNotice,
  type P2pOrderState,
  type P2pOrderStatus,
  type P2pOutcome,
  p2pOrderTransition,
  p2pReleaseSplit,
  p2pReleaseSplitWithVip,
  p2pStatusCodes,
} from './order-machine.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;

// One order on one clock: placed at PLACED, 15 minutes to pay, marked paid after 5, and an
// appeal opens 30 minutes after marking paid.
const PLACED = Date.UTC(2025, 0, 1, 12, 0, 0);
const DEADLINE = PLACED + 15 * MINUTE;
const PAID_AT = PLACED + 5 * MINUTE;
const APPEAL_AFTER = 30 * MINUTE;
const APPEAL_OPENS = PAID_AT + APPEAL_AFTER;

const order = (status: P2pOrderStatus, paidAtMs: number | null = PAID_AT): P2pOrderState => ({ status, paymentDeadlineMs: DEADLINE, paidAtMs });

const ok = (status: P2pOrderStatus, effect: P2pEffect, buyer: P2pNotice, seller: P2pNotice): P2pOutcome => ({ ok: true, status, effect, notice: { buyer, seller } });
const WRONG_STATE: P2pOutcome = { ok: false, problem: 'wrong_state' };

const STATUSES: readonly P2pOrderStatus[] = ['awaiting_payment', 'paid', 'released', 'cancelled', 'appealing', 'refunded'];

/**
 * Every command, each at a moment its clock rule (if any) allows, so that in the table below only
 * the state decides: marking paid and cancelling inside the payment window, expiring at the
 * deadline, appealing the moment the appeal opens, the rest well after everything.
 */
const COMMANDS = {
  mark_paid: { command: { kind: 'mark_paid', by: 'buyer' }, nowMs: DEADLINE - MINUTE },
  cancel: { command: { kind: 'cancel', by: 'buyer' }, nowMs: DEADLINE - MINUTE },
  expire: { command: { kind: 'expire' }, nowMs: DEADLINE },
  release: { command: { kind: 'release', by: 'seller' }, nowMs: APPEAL_OPENS + HOUR },
  appeal_by_buyer: { command: { kind: 'appeal', by: 'buyer' }, nowMs: APPEAL_OPENS },
  appeal_by_seller: { command: { kind: 'appeal', by: 'seller' }, nowMs: APPEAL_OPENS },
  resolve_release: { command: { kind: 'resolve', outcome: 'release' }, nowMs: APPEAL_OPENS + HOUR },
  resolve_refund: { command: { kind: 'resolve', outcome: 'refund' }, nowMs: APPEAL_OPENS + HOUR },
} as const satisfies Record<string, { command: P2pCommand; nowMs: number }>;

type Column = keyof typeof COMMANDS;

/** 6 states × 8 commands, every cell written out. */
const TABLE: Record<P2pOrderStatus, Record<Column, P2pOutcome>> = {
  awaiting_payment: {
    mark_paid: ok('paid', 'none', 'paid_waiting_for_seller', 'seller_should_confirm'),
    cancel: ok('cancelled', 'return_to_ad', 'cancelled', 'cancelled'),
    expire: ok('cancelled', 'return_to_ad', 'expired', 'expired'),
    release: WRONG_STATE,
    appeal_by_buyer: WRONG_STATE,
    appeal_by_seller: WRONG_STATE,
    resolve_release: WRONG_STATE,
    resolve_refund: WRONG_STATE,
  },
  paid: {
    mark_paid: WRONG_STATE,
    cancel: WRONG_STATE,
    expire: WRONG_STATE,
    release: ok('released', 'release_to_buyer', 'released_to_buyer', 'released_to_buyer'),
    appeal_by_buyer: ok('appealing', 'none', 'appealed', 'appealed'),
    appeal_by_seller: ok('appealing', 'none', 'appealed', 'appealed'),
    resolve_release: WRONG_STATE,
    resolve_refund: WRONG_STATE,
  },
  released: {
    mark_paid: WRONG_STATE,
    cancel: WRONG_STATE,
    expire: WRONG_STATE,
    release: WRONG_STATE,
    appeal_by_buyer: WRONG_STATE,
    appeal_by_seller: WRONG_STATE,
    resolve_release: WRONG_STATE,
    resolve_refund: WRONG_STATE,
  },
  cancelled: {
    mark_paid: WRONG_STATE,
    cancel: WRONG_STATE,
    expire: WRONG_STATE,
    release: WRONG_STATE,
    appeal_by_buyer: WRONG_STATE,
    appeal_by_seller: WRONG_STATE,
    resolve_release: WRONG_STATE,
    resolve_refund: WRONG_STATE,
  },
  appealing: {
    mark_paid: WRONG_STATE,
    cancel: WRONG_STATE,
    expire: WRONG_STATE,
    release: WRONG_STATE,
    appeal_by_buyer: WRONG_STATE,
    appeal_by_seller: WRONG_STATE,
    resolve_release: ok('released', 'release_to_buyer', 'released_to_buyer', 'released_to_buyer'),
    resolve_refund: ok('refunded', 'refund_to_seller', 'refunded', 'refunded'),
  },
  refunded: {
    mark_paid: WRONG_STATE,
    cancel: WRONG_STATE,
    expire: WRONG_STATE,
    release: WRONG_STATE,
    appeal_by_buyer: WRONG_STATE,
    appeal_by_seller: WRONG_STATE,
    resolve_release: WRONG_STATE,
    resolve_refund: WRONG_STATE,
  },
};

describe('p2p order: every state × every command', () => {
  it('the table covers the six states and the eight commands', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...STATUSES].sort());
    expect(Object.keys(p2pStatusCodes).sort()).toEqual([...STATUSES].sort());
    for (const status of STATUSES) expect(Object.keys(TABLE[status]).sort(), status).toEqual(Object.keys(COMMANDS).sort());
  });

  for (const status of STATUSES) {
    for (const column of Object.keys(COMMANDS) as Column[]) {
      const { command, nowMs } = COMMANDS[column];
      const expected = TABLE[status][column];
      it(`${status} × ${column} → ${expected.ok ? `${expected.status} (${expected.effect})` : expected.problem}`, () => {
        // paidAtMs is set in every state, so a refusal here can only come from the status.
        expect(p2pOrderTransition(order(status), command, nowMs, APPEAL_AFTER)).toEqual(expected);
      });
    }
  }

  it('a refused command refuses for the state even where the clock would refuse too', () => {
    // State first: a finished or paid order never reports a clock problem.
    expect(p2pOrderTransition(order('paid'), { kind: 'mark_paid', by: 'buyer' }, DEADLINE + HOUR, APPEAL_AFTER)).toEqual(WRONG_STATE);
    expect(p2pOrderTransition(order('cancelled'), { kind: 'mark_paid', by: 'buyer' }, DEADLINE, APPEAL_AFTER)).toEqual(WRONG_STATE);
    expect(p2pOrderTransition(order('awaiting_payment'), { kind: 'appeal', by: 'buyer' }, PAID_AT, APPEAL_AFTER)).toEqual(WRONG_STATE);
    expect(p2pOrderTransition(order('appealing'), { kind: 'appeal', by: 'seller' }, PAID_AT, APPEAL_AFTER)).toEqual(WRONG_STATE);
  });

  it('the orders a real server holds: unpaid orders have no paidAtMs and behave the same', () => {
    const unpaid = order('awaiting_payment', null);
    expect(p2pOrderTransition(unpaid, { kind: 'mark_paid', by: 'buyer' }, DEADLINE - MINUTE, APPEAL_AFTER)).toEqual(TABLE.awaiting_payment.mark_paid);
    expect(p2pOrderTransition(unpaid, { kind: 'cancel', by: 'buyer' }, DEADLINE - MINUTE, APPEAL_AFTER)).toEqual(TABLE.awaiting_payment.cancel);
    expect(p2pOrderTransition(unpaid, { kind: 'expire' }, DEADLINE, APPEAL_AFTER)).toEqual(TABLE.awaiting_payment.expire);
    expect(p2pOrderTransition(unpaid, { kind: 'appeal', by: 'buyer' }, APPEAL_OPENS, APPEAL_AFTER)).toEqual(WRONG_STATE);
  });

  it('a paid order without paidAtMs cannot be appealed (no clock to count from)', () => {
    expect(p2pOrderTransition(order('paid', null), { kind: 'appeal', by: 'buyer' }, APPEAL_OPENS + 365 * 24 * HOUR, APPEAL_AFTER)).toEqual(WRONG_STATE);
    expect(p2pOrderTransition(order('paid', null), { kind: 'appeal', by: 'seller' }, APPEAL_OPENS + 365 * 24 * HOUR, APPEAL_AFTER)).toEqual(WRONG_STATE);
  });

  it('every allowed step that leaves the escrow alone keeps it held, and every step that moves it ends the hold', () => {
    for (const status of STATUSES) {
      for (const expected of Object.values(TABLE[status])) {
        if (!expected.ok) continue;
        expect(holdsEscrow(status), status).toBe(true);
        expect(holdsEscrow(expected.status), `${status} → ${expected.status}`).toBe(expected.effect === 'none');
      }
    }
  });

  it("the spec's codes for the first three states, Keel's after them", () => {
    expect(p2pStatusCodes).toEqual({ awaiting_payment: 0, paid: 1, released: 2, cancelled: 3, appealing: 4, refunded: 5 });
  });
});

describe('p2p order: the clock', () => {
  const markPaid: P2pCommand = { kind: 'mark_paid', by: 'buyer' };
  const expire: P2pCommand = { kind: 'expire' };

  it('mark paid one ms before the deadline is allowed', () => {
    expect(p2pOrderTransition(order('awaiting_payment', null), markPaid, DEADLINE - 1, APPEAL_AFTER)).toEqual(
      ok('paid', 'none', 'paid_waiting_for_seller', 'seller_should_confirm'),
    );
  });

  it('mark paid at the deadline, or after it, is refused: the payment window is over', () => {
    expect(p2pOrderTransition(order('awaiting_payment', null), markPaid, DEADLINE, APPEAL_AFTER)).toEqual({ ok: false, problem: 'payment_window_over' });
    expect(p2pOrderTransition(order('awaiting_payment', null), markPaid, DEADLINE + 1, APPEAL_AFTER)).toEqual({ ok: false, problem: 'payment_window_over' });
  });

  it('expire one ms before the deadline is refused: the buyer still has time', () => {
    expect(p2pOrderTransition(order('awaiting_payment', null), expire, DEADLINE - 1, APPEAL_AFTER)).toEqual(WRONG_STATE);
    expect(p2pOrderTransition(order('awaiting_payment', null), expire, PLACED, APPEAL_AFTER)).toEqual(WRONG_STATE);
  });

  it('expire at the deadline is allowed, and so is a late job', () => {
    expect(p2pOrderTransition(order('awaiting_payment', null), expire, DEADLINE, APPEAL_AFTER)).toEqual(ok('cancelled', 'return_to_ad', 'expired', 'expired'));
    expect(p2pOrderTransition(order('awaiting_payment', null), expire, DEADLINE + 6 * HOUR, APPEAL_AFTER)).toEqual(ok('cancelled', 'return_to_ad', 'expired', 'expired'));
  });

  it('appeal before paidAt + appealAfterMs is too early, by either side', () => {
    for (const by of ['buyer', 'seller'] as const) {
      expect(p2pOrderTransition(order('paid'), { kind: 'appeal', by }, APPEAL_OPENS - 1, APPEAL_AFTER), by).toEqual({ ok: false, problem: 'appeal_too_early' });
      expect(p2pOrderTransition(order('paid'), { kind: 'appeal', by }, PAID_AT, APPEAL_AFTER), by).toEqual({ ok: false, problem: 'appeal_too_early' });
    }
  });

  it('appeal at paidAt + appealAfterMs is allowed, by either side', () => {
    for (const by of ['buyer', 'seller'] as const) {
      expect(p2pOrderTransition(order('paid'), { kind: 'appeal', by }, APPEAL_OPENS, APPEAL_AFTER), by).toEqual(ok('appealing', 'none', 'appealed', 'appealed'));
    }
  });

  it('the appeal waits from paidAt, not from placing or from the deadline', () => {
    // Paid late in the window: the appeal opens appealAfterMs after that, whatever the deadline.
    const paidLate = order('paid', DEADLINE - 1);
    expect(p2pOrderTransition(paidLate, { kind: 'appeal', by: 'buyer' }, DEADLINE - 1 + APPEAL_AFTER - 1, APPEAL_AFTER)).toEqual({ ok: false, problem: 'appeal_too_early' });
    expect(p2pOrderTransition(paidLate, { kind: 'appeal', by: 'buyer' }, DEADLINE - 1 + APPEAL_AFTER, APPEAL_AFTER)).toEqual(ok('appealing', 'none', 'appealed', 'appealed'));
    // With no wait configured the appeal opens the moment the order is paid.
    expect(p2pOrderTransition(order('paid'), { kind: 'appeal', by: 'seller' }, PAID_AT, 0)).toEqual(ok('appealing', 'none', 'appealed', 'appealed'));
    expect(p2pOrderTransition(order('paid'), { kind: 'appeal', by: 'seller' }, PAID_AT - 1, 0)).toEqual({ ok: false, problem: 'appeal_too_early' });
  });

  it('cancel, release and resolve have no clock: allowed inside and after every window', () => {
    expect(p2pOrderTransition(order('awaiting_payment', null), { kind: 'cancel', by: 'buyer' }, PLACED, APPEAL_AFTER)).toEqual(ok('cancelled', 'return_to_ad', 'cancelled', 'cancelled'));
    expect(p2pOrderTransition(order('awaiting_payment', null), { kind: 'cancel', by: 'buyer' }, DEADLINE + HOUR, APPEAL_AFTER)).toEqual(
      ok('cancelled', 'return_to_ad', 'cancelled', 'cancelled'),
    );
    expect(p2pOrderTransition(order('paid'), { kind: 'release', by: 'seller' }, PAID_AT, APPEAL_AFTER)).toEqual(
      ok('released', 'release_to_buyer', 'released_to_buyer', 'released_to_buyer'),
    );
    expect(p2pOrderTransition(order('appealing'), { kind: 'resolve', outcome: 'refund' }, APPEAL_OPENS, APPEAL_AFTER)).toEqual(
      ok('refunded', 'refund_to_seller', 'refunded', 'refunded'),
    );
  });
});

describe('holdsEscrow', () => {
  const expected: [P2pOrderStatus, boolean][] = [
    ['awaiting_payment', true],
    ['paid', true],
    ['appealing', true],
    ['released', false],
    ['cancelled', false],
    ['refunded', false],
  ];
  for (const [status, holds] of expected) {
    it(`${status}: ${holds ? 'held' : 'not held'}`, () => {
      expect(holdsEscrow(status)).toBe(holds);
    });
  }
});

describe('p2pReleaseSplitWithVip', () => {
  it('takes the buyer’s VIP discount off the fee, rounded down; level 0 is the plain split', () => {
    // 0.1 % of 1,234,567 = 1,234.567 → 1,235; VIP 3 takes 30 %: 370.5 → 370; 865 charged.
    expect(p2pReleaseSplitWithVip(1_234_567n, vipTermsOf(3, DEFAULT_VIP_LEVELS))).toEqual({
      toBuyerMinor: 1_234_567n - 865n,
      feeBeforeDiscountMinor: 1_235n,
      discountBps: 3_000,
      discountMinor: 370n,
      feeMinor: 865n,
      level: 3,
    });
    expect(p2pReleaseSplitWithVip(1_000_000n, vipTermsOf(0, DEFAULT_VIP_LEVELS))).toMatchObject(p2pReleaseSplit(1_000_000n));
  });
});

describe('p2pReleaseSplit', () => {
  it('the fee is 10 bps', () => {
    expect(P2P_FEE_BPS).toBe(10n);
  });

  it('0.1 % of an exact amount: 1_000_000 → fee 1_000', () => {
    expect(p2pReleaseSplit(1_000_000n)).toEqual({ toBuyerMinor: 999_000n, feeMinor: 1_000n });
    expect(p2pReleaseSplit(10_000n)).toEqual({ toBuyerMinor: 9_990n, feeMinor: 10n });
  });

  it('the fee rounds up: a single minor unit is all fee', () => {
    expect(p2pReleaseSplit(1n)).toEqual({ toBuyerMinor: 0n, feeMinor: 1n });
    expect(p2pReleaseSplit(999n)).toEqual({ toBuyerMinor: 998n, feeMinor: 1n });
    expect(p2pReleaseSplit(1_000n)).toEqual({ toBuyerMinor: 999n, feeMinor: 1n });
    expect(p2pReleaseSplit(1_001n)).toEqual({ toBuyerMinor: 999n, feeMinor: 2n });
    expect(p2pReleaseSplit(9_999n)).toEqual({ toBuyerMinor: 9_989n, feeMinor: 10n });
    expect(p2pReleaseSplit(10_001n)).toEqual({ toBuyerMinor: 9_990n, feeMinor: 11n });
  });

  it('nothing escrowed, nothing paid', () => {
    expect(p2pReleaseSplit(0n)).toEqual({ toBuyerMinor: 0n, feeMinor: 0n });
  });

  it('large amounts stay exact', () => {
    // 10^24 + 1 minor units: 10^21 plus the rounded-up thousandth of the odd unit.
    expect(p2pReleaseSplit(10n ** 24n + 1n)).toEqual({ toBuyerMinor: 10n ** 24n - 10n ** 21n, feeMinor: 10n ** 21n + 1n });
  });

  it('toBuyer + fee = quantity, and the fee is never below 0.1 %, nor a unit above it', () => {
    const quantities = [1n, 2n, 7n, 999n, 1_000n, 1_001n, 123_456_789n, 10n ** 18n - 1n, 10n ** 30n + 12_345n];
    for (let q = 0n; q <= 3_000n; q += 1n) quantities.push(q);
    for (const quantity of quantities) {
      const { toBuyerMinor, feeMinor } = p2pReleaseSplit(quantity);
      expect(toBuyerMinor + feeMinor, `${quantity}`).toBe(quantity);
      expect(toBuyerMinor >= 0n, `${quantity}`).toBe(true);
      expect(feeMinor * 1_000n >= quantity, `${quantity}`).toBe(true);
      expect((feeMinor - 1n) * 1_000n < quantity || quantity === 0n, `${quantity}`).toBe(true);
    }
  });

  it('a negative quantity is refused', () => {
    expect(() => p2pReleaseSplit(-1n)).toThrow(RangeError);
  });
});

describe('orderQuantityProblem', () => {
  const ad = { minMinor: 100n, maxMinor: 1_000n, remainingMinor: 5_000n };
  const nearlyDone = { minMinor: 100n, maxMinor: 1_000n, remainingMinor: 500n };

  it('zero and negative quantities are not positive', () => {
    expect(orderQuantityProblem(0n, ad)).toBe('not_positive');
    expect(orderQuantityProblem(-1n, ad)).toBe('not_positive');
    expect(orderQuantityProblem(-1_000n, ad)).toBe('not_positive');
    // Even where the ad's minimum is zero.
    expect(orderQuantityProblem(0n, { minMinor: 0n, maxMinor: 1_000n, remainingMinor: 5_000n })).toBe('not_positive');
    expect(orderQuantityProblem(1n, { minMinor: 0n, maxMinor: 1_000n, remainingMinor: 5_000n })).toBeNull();
  });

  it('the minimum is allowed, one below it is not', () => {
    expect(orderQuantityProblem(99n, ad)).toBe('below_min');
    expect(orderQuantityProblem(1n, ad)).toBe('below_min');
    expect(orderQuantityProblem(100n, ad)).toBeNull();
  });

  it('the maximum is allowed, one above it is not', () => {
    expect(orderQuantityProblem(1_000n, ad)).toBeNull();
    expect(orderQuantityProblem(1_001n, ad)).toBe('above_max');
  });

  it('all that remains is allowed, one more is not', () => {
    expect(orderQuantityProblem(500n, nearlyDone)).toBeNull();
    expect(orderQuantityProblem(501n, nearlyDone)).toBe('above_remaining');
  });

  it('above both the maximum and what remains is above the maximum', () => {
    expect(orderQuantityProblem(1_001n, nearlyDone)).toBe('above_max');
  });

  it('when less remains than the minimum, nothing fits', () => {
    const leftover = { minMinor: 100n, maxMinor: 1_000n, remainingMinor: 50n };
    expect(orderQuantityProblem(50n, leftover)).toBe('below_min');
    expect(orderQuantityProblem(100n, leftover)).toBe('above_remaining');
  });
});

describe('orderingRestrictedUntilMs', () => {
  const T = Date.UTC(2025, 0, 1, 0, 0, 0);

  it('the rule: three cancellations within 24 h restrict ordering for 24 h', () => {
    expect(CANCELLATIONS_BEFORE_RESTRICTION).toBe(3);
    expect(CANCELLATION_WINDOW_MS).toBe(24 * HOUR);
    expect(ORDERING_RESTRICTION_MS).toBe(24 * HOUR);
  });

  it('no cancellations, or two, restrict nothing', () => {
    expect(orderingRestrictedUntilMs([], T)).toBeNull();
    expect(orderingRestrictedUntilMs([T], T + 1)).toBeNull();
    expect(orderingRestrictedUntilMs([T, T + 1], T + 2)).toBeNull();
    expect(orderingRestrictedUntilMs([T, T], T)).toBeNull();
  });

  it('three within 24 h: restricted until the third + 24 h', () => {
    expect(orderingRestrictedUntilMs([T, T + HOUR, T + 2 * HOUR], T + 3 * HOUR)).toBe(T + 26 * HOUR);
    // Three at the same moment count too.
    expect(orderingRestrictedUntilMs([T, T, T], T)).toBe(T + 24 * HOUR);
  });

  it('three exactly 24 h apart still count; one ms more and they do not', () => {
    expect(orderingRestrictedUntilMs([T, T + 12 * HOUR, T + 24 * HOUR], T + 24 * HOUR)).toBe(T + 48 * HOUR);
    expect(orderingRestrictedUntilMs([T, T + 12 * HOUR, T + 24 * HOUR + 1], T + 24 * HOUR + 1)).toBeNull();
  });

  it('three spread over more than 24 h restrict nothing', () => {
    expect(orderingRestrictedUntilMs([T, T + 20 * HOUR, T + 40 * HOUR], T + 40 * HOUR)).toBeNull();
    expect(orderingRestrictedUntilMs([T, T + 23 * HOUR, T + 25 * HOUR], T + 25 * HOUR)).toBeNull();
  });

  it('the restriction ends exactly 24 h after the third', () => {
    const third = T + 2 * HOUR;
    const times = [T, T + HOUR, third];
    expect(orderingRestrictedUntilMs(times, third)).toBe(third + 24 * HOUR);
    expect(orderingRestrictedUntilMs(times, third + 24 * HOUR - 1)).toBe(third + 24 * HOUR);
    expect(orderingRestrictedUntilMs(times, third + 24 * HOUR)).toBeNull();
    expect(orderingRestrictedUntilMs(times, third + 48 * HOUR)).toBeNull();
  });

  it('the order of the input does not matter, and the input is left as it was', () => {
    const unsorted = [T + 2 * HOUR, T, T + HOUR];
    expect(orderingRestrictedUntilMs(unsorted, T + 3 * HOUR)).toBe(T + 26 * HOUR);
    expect(unsorted).toEqual([T + 2 * HOUR, T, T + HOUR]);
    // Unsorted, the first three as given span 40 h; sorted, the last three span 2 h.
    expect(orderingRestrictedUntilMs([T + 40 * HOUR, T, T + 39 * HOUR, T + 38 * HOUR], T + 41 * HOUR)).toBe(T + 64 * HOUR);
  });

  it('four cancellations where only the last three qualify', () => {
    expect(orderingRestrictedUntilMs([T - 30 * HOUR, T, T + HOUR, T + 2 * HOUR], T + 3 * HOUR)).toBe(T + 26 * HOUR);
  });

  it('four cancellations where only the first three qualify: the restriction still counts from their third', () => {
    expect(orderingRestrictedUntilMs([T, T + HOUR, T + 2 * HOUR, T + 30 * HOUR], T + 3 * HOUR)).toBe(T + 26 * HOUR);
    // And it is over once that day has passed, however recent the fourth.
    expect(orderingRestrictedUntilMs([T, T + HOUR, T + 2 * HOUR, T + 30 * HOUR], T + 30 * HOUR)).toBeNull();
  });

  it('overlapping runs: the latest qualifying third decides', () => {
    expect(orderingRestrictedUntilMs([T, T + HOUR, T + 2 * HOUR, T + 20 * HOUR], T + 21 * HOUR)).toBe(T + 44 * HOUR);
  });
});
