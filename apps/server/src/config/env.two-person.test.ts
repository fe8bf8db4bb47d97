import { describe, expect, it } from 'vitest';
import { publishedTwoPersonRule, twoPersonLimits } from '../use-cases/admin/two-person-rule.ts';
import { loadConfig } from './env.ts';

// The two-person rule's numbers (ADR 0022): defaults, overrides, refusals, and that what is
// published is what the use cases apply.

describe('two-person rule configuration', () => {
  it('defaults: 10,000 USDT a record (1,000 an appeal), 10,000 USDT per staff member and per user, 24 h', () => {
    const config = loadConfig({});
    expect(twoPersonLimits(config, 'wallet')).toEqual({
      recordAboveUsdtMinor: 10_000_000_000n,
      staffAloneUsdtMinor: 10_000_000_000n,
      userAloneUsdtMinor: 10_000_000_000n,
      windowMs: 24 * 3_600_000,
    });
    expect(twoPersonLimits(config, 'appeal').recordAboveUsdtMinor).toBe(1_000_000_000n);
    expect(publishedTwoPersonRule(config)).toEqual({
      recordAboveUsdt: '10000.000000',
      appealAboveUsdt: '1000.000000',
      staffAloneLimitUsdt: '10000.000000',
      userAloneLimitUsdt: '10000.000000',
      windowHours: 24,
      correctionAdminAboveUsdt: '1000.000000',
    });
  });

  it('takes the operator’s numbers and refuses nonsense', () => {
    const config = loadConfig({ TWO_PERSON_STAFF_ALONE_USDT: '50000', TWO_PERSON_USER_ALONE_USDT: '0', TWO_PERSON_WINDOW_HOURS: '72', P2P_APPEAL_TWO_PERSON_ABOVE_USDT: '250' });
    expect(twoPersonLimits(config, 'appeal')).toEqual({
      recordAboveUsdtMinor: 250_000_000n,
      staffAloneUsdtMinor: 50_000_000_000n,
      userAloneUsdtMinor: 0n,
      windowMs: 72 * 3_600_000,
    });
    expect(() => loadConfig({ TWO_PERSON_WINDOW_HOURS: '0' })).toThrow(/TWO_PERSON_WINDOW_HOURS/);
    expect(() => loadConfig({ TWO_PERSON_STAFF_ALONE_USDT: '-1' })).toThrow(/TWO_PERSON_STAFF_ALONE_USDT/);
    expect(() => loadConfig({ P2P_APPEAL_TWO_PERSON_ABOVE_USDT: '1.5' })).toThrow(/P2P_APPEAL_TWO_PERSON_ABOVE_USDT/);
  });
});
