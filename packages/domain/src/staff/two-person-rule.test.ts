import { describe, expect, it } from 'vitest';
import { appealResolutionStep, type TwoPersonLimits, twoPersonReason } from './two-person-rule.ts';

const USDT = 1_000_000n;
const DAY_MS = 24 * 3_600_000;
const limits: TwoPersonLimits = { recordAboveUsdtMinor: 10_000n * USDT, staffAloneUsdtMinor: 10_000n * USDT, userAloneUsdtMinor: 10_000n * USDT, windowMs: DAY_MS };
const alone = (valueUsdt: bigint | null, staffUsdt = 0n, userUsdt = 0n) =>
  twoPersonReason(limits, { valueUsdtMinor: valueUsdt === null ? null : valueUsdt * USDT, staffAloneUsdtMinor: staffUsdt * USDT, userAloneUsdtMinor: userUsdt * USDT });

describe('the two-person rule', () => {
  it('one person decides alone up to each limit, inclusive', () => {
    expect(alone(10_000n)).toBeNull();
    expect(alone(1n, 9_999n, 9_999n)).toBeNull();
    expect(alone(0n, 10_000n, 10_000n)).toBeNull();
  });

  it('a record above its threshold, or without a price, needs two people', () => {
    expect(alone(10_001n)).toEqual({ rule: 'record', limitUsdtMinor: 10_000n * USDT, decidedAloneUsdtMinor: 0n, valueUsdtMinor: 10_001n * USDT, windowMs: DAY_MS });
    expect(alone(null)).toMatchObject({ rule: 'unpriced', valueUsdtMinor: 0n });
  });

  it('3 × 9,999 USDT by one member: the second already passes the per-staff limit', () => {
    expect(alone(9_999n, 0n, 0n)).toBeNull();
    expect(alone(9_999n, 9_999n, 0n)).toEqual({ rule: 'staff_window', limitUsdtMinor: 10_000n * USDT, decidedAloneUsdtMinor: 9_999n * USDT, valueUsdtMinor: 9_999n * USDT, windowMs: DAY_MS });
  });

  it('the per-user limit counts what other members decided alone for the user', () => {
    expect(alone(6_000n, 0n, 6_000n)).toMatchObject({ rule: 'user_window', decidedAloneUsdtMinor: 6_000n * USDT });
  });

  it('names the first rule that applies: record, then staff, then user', () => {
    expect(alone(20_000n, 20_000n, 20_000n)?.rule).toBe('record');
    expect(alone(5_000n, 6_000n, 6_000n)?.rule).toBe('staff_window');
  });
});

describe('an appeal resolution', () => {
  const SAM = 1n;
  const TESS = 2n;
  const reason = alone(20_000n);

  it('alone when the rule allows it and nothing was proposed', () => {
    expect(appealResolutionStep({ proposal: null, reason: null, staffId: SAM, outcome: 'release' })).toEqual({ kind: 'carry_out', people: 1, firstStaffId: null });
  });

  it('otherwise a proposal that a different member confirms', () => {
    expect(appealResolutionStep({ proposal: null, reason, staffId: SAM, outcome: 'release' })).toEqual({ kind: 'propose' });
    const proposal = { outcome: 'release' as const, staffId: SAM };
    expect(appealResolutionStep({ proposal, reason: null, staffId: SAM, outcome: 'release' })).toEqual({ kind: 'refused', problem: 'same_approver' });
    expect(appealResolutionStep({ proposal, reason: null, staffId: TESS, outcome: 'release' })).toEqual({ kind: 'carry_out', people: 2, firstStaffId: SAM });
  });

  it('a disagreement replaces the proposal and moves nothing, even by the proposer', () => {
    const proposal = { outcome: 'release' as const, staffId: SAM };
    expect(appealResolutionStep({ proposal, reason: null, staffId: TESS, outcome: 'refund' })).toEqual({ kind: 'propose' });
    expect(appealResolutionStep({ proposal, reason: null, staffId: SAM, outcome: 'refund' })).toEqual({ kind: 'propose' });
  });
});
