import { describe, expect, it } from 'vitest';
import { baseUnitsToMinor, judgeObservation } from './check-chain-deposits.ts';
import type { ChannelSetting } from './wallet-settings.ts';

// The on-chain verdict, without a node: the rules that decide credit, wait or refuse.

const HOUR = 3_600_000;
const usdtErc20: ChannelSetting = {
  id: 'USDT-ERC20',
  asset: 'USDT',
  network: 'ethereum',
  scale: 6,
  withdrawFeeMinor: 0n,
  withdrawMinMinor: 0n,
  depositMaxMinor: 10_000_000_000_000n,
  depositReview: 'chain',
  confirmations: 12,
  token: { contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
};
const eth: ChannelSetting = { ...usdtErc20, id: 'ETH', asset: 'ETH', scale: 18, token: undefined };
const reported = { amount_minor: '250500000', asset: 'USDT' as const, created_at: new Date(0) };

describe('on-chain deposit verdicts', () => {
  it('credits the exact reported amount after the confirmations, waits before', () => {
    const mined = (confirmations: number) => ({ kind: 'mined' as const, blockNumber: 10n, confirmations, amountToAddressBaseUnits: 250_500_000n });
    expect(judgeObservation(reported, usdtErc20, mined(12), HOUR, 24 * HOUR)).toEqual({ kind: 'confirm', confirmations: 12 });
    expect(judgeObservation(reported, usdtErc20, mined(11), HOUR, 24 * HOUR)).toEqual({ kind: 'wait', confirmations: 11 });
  });

  it('refuses a different amount, naming both, and a reverted transaction', () => {
    const verdict = judgeObservation(reported, usdtErc20, { kind: 'mined', blockNumber: 1n, confirmations: 20, amountToAddressBaseUnits: 250_499_999n }, HOUR, 24 * HOUR);
    expect(verdict).toEqual({
      kind: 'refuse',
      reason: { key: 'notify.deposit.reason.amountMismatch', vars: { onChain: '250.499999', reported: '250.500000', asset: 'USDT' } },
    });
    expect(judgeObservation(reported, usdtErc20, { kind: 'reverted', blockNumber: 1n }, HOUR, 24 * HOUR)).toMatchObject({ kind: 'refuse', reason: { key: 'notify.deposit.reason.reverted' } });
  });

  it('waits for an unknown or pending transaction, and gives up after the published time', () => {
    expect(judgeObservation(reported, usdtErc20, { kind: 'not_found' }, HOUR, 24 * HOUR)).toEqual({ kind: 'wait', confirmations: 0 });
    expect(judgeObservation(reported, usdtErc20, { kind: 'pending' }, 25 * HOUR, 24 * HOUR)).toEqual({
      kind: 'refuse',
      reason: { key: 'notify.deposit.reason.notFound', vars: { hours: '24' } },
    });
  });

  it('converts chain units to the ledger scale exactly, or not at all', () => {
    expect(baseUnitsToMinor(1_234_567_890_000_000_000n, 18, 18)).toBe(1_234_567_890_000_000_000n);
    expect(baseUnitsToMinor(5n, 6, 8)).toBe(500n);
    expect(baseUnitsToMinor(1_000n, 9, 6)).toBe(1n);
    expect(baseUnitsToMinor(1_001n, 9, 6)).toBeNull();
    const ethReport = { amount_minor: '1', asset: 'ETH' as const, created_at: new Date(0) };
    expect(judgeObservation(ethReport, eth, { kind: 'mined', blockNumber: 1n, confirmations: 12, amountToAddressBaseUnits: 1n }, HOUR, 24 * HOUR)).toMatchObject({ kind: 'confirm' });
  });
});
