import { describe, expect, it } from 'vitest';
import { canUseAccount, canWithdraw } from './user-status.ts';

describe('account status policy', () => {
  it('lets active and withdrawal-forbidden accounts use the platform', () => {
    expect(canUseAccount('active')).toBe(true);
    expect(canUseAccount('withdrawal_forbidden')).toBe(true);
    expect(canUseAccount('suspended')).toBe(false);
    expect(canUseAccount('banned')).toBe(false);
  });

  it('lets only active accounts withdraw', () => {
    expect(canWithdraw('active')).toBe(true);
    expect(canWithdraw('withdrawal_forbidden')).toBe(false);
    expect(canWithdraw('suspended')).toBe(false);
    expect(canWithdraw('banned')).toBe(false);
  });
});
