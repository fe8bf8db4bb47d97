import { describe, expect, it } from 'vitest';
import type { AccountBalance } from './accounts.ts';
import { holdsSomething, sectionAccounts, valueBalances } from './valuation.ts';

const zeroRow = (kind: AccountBalance['kind'], asset: AccountBalance['asset']): AccountBalance => ({
  kind,
  asset,
  available: asset === 'USDT' ? '0.000000' : asset === 'BTC' ? '0.00000000' : '0.000000000000000000',
  frozen: asset === 'USDT' ? '0.000000' : asset === 'BTC' ? '0.00000000' : '0.000000000000000000',
});

function accounts(overrides: AccountBalance[]): AccountBalance[] {
  const all: AccountBalance[] = [];
  for (const kind of ['coin', 'fiat', 'innovation', 'defi', 'leveraged', 'options'] as const) {
    for (const asset of ['BTC', 'ETH', 'USDT'] as const) {
      all.push(overrides.find((row) => row.kind === kind && row.asset === asset) ?? zeroRow(kind, asset));
    }
  }
  return all;
}

describe('valueBalances', () => {
  it('values usable plus frozen at the last prices and sums per account and overall', () => {
    const rows = accounts([
      { kind: 'coin', asset: 'USDT', available: '10000.000000', frozen: '0.500000' },
      { kind: 'coin', asset: 'BTC', available: '0.50000000', frozen: '0.00000001' },
      { kind: 'fiat', asset: 'ETH', available: '1.000000000000000001', frozen: '0.000000000000000000' },
    ]);
    const prices = new Map([
      ['BTC', '64000.00000000'],
      ['ETH', '3000.12345678'],
    ]);
    const valuation = valueBalances(rows, prices);
    const coin = valuation.groups.find((group) => group.kind === 'coin')!;
    expect(coin.balances.map((row) => [row.asset, row.total, row.valueUsdt])).toEqual([
      ['USDT', '10000.500000', '10000.500000'],
      ['BTC', '0.50000001', '32000.000640'],
      ['ETH', '0.000000000000000000', '0.000000'],
    ]);
    expect(coin.valueUsdt).toBe('42000.500640');
    expect(valuation.groups.find((group) => group.kind === 'fiat')!.valueUsdt).toBe('3000.123456');
    expect(valuation.totalUsdt).toBe('45000.624096');
    expect(valuation.groups.map((group) => group.kind)).toEqual(['coin', 'fiat', 'innovation', 'defi', 'leveraged', 'options']);
    expect(valuation.unpriced).toEqual([]);
  });

  it('refuses to total what it cannot price, and names the asset', () => {
    const rows = accounts([
      { kind: 'coin', asset: 'USDT', available: '5.000000', frozen: '0.000000' },
      { kind: 'options', asset: 'BTC', available: '0.10000000', frozen: '0.00000000' },
    ]);
    const valuation = valueBalances(rows, new Map());
    expect(valuation.totalUsdt).toBeNull();
    expect(valuation.unpriced).toEqual(['BTC']);
    expect(valuation.groups.find((group) => group.kind === 'coin')!.valueUsdt).toBe('5.000000');
    expect(valuation.groups.find((group) => group.kind === 'options')!.valueUsdt).toBeNull();
    // Assets not held are worth 0 with or without a price.
    expect(valuation.groups.find((group) => group.kind === 'fiat')!.balances.map((row) => row.valueUsdt)).toEqual(['0.000000', '0.000000', '0.000000']);
  });

  it('needs no price for assets that are not held', () => {
    const valuation = valueBalances(accounts([{ kind: 'coin', asset: 'USDT', available: '1.000000', frozen: '0.000000' }]), new Map());
    expect(valuation.totalUsdt).toBe('1.000000');
  });
});

describe('sectionAccounts', () => {
  const kindsOf = (groups: readonly { kind: string }[]) => groups.map((group) => group.kind);

  it('lists the accounts holding something first, the coin account always, the rest folded, innovation left out', () => {
    const valuation = valueBalances(
      accounts([
        { kind: 'options', asset: 'USDT', available: '34.500000', frozen: '0.000000' },
        // Only frozen: still money the user has.
        { kind: 'defi', asset: 'BTC', available: '0.00000000', frozen: '0.00000001' },
      ]),
      new Map([['BTC', '64000']]),
    );
    const { shown, folded } = sectionAccounts(valuation.groups);
    expect(kindsOf(shown)).toEqual(['coin', 'defi', 'options']);
    expect(kindsOf(folded)).toEqual(['fiat', 'leveraged']);
    expect(holdsSomething(shown[0]!)).toBe(false);
  });

  it('never hides a balance: the reserved innovation account shows when it holds something', () => {
    const valuation = valueBalances(accounts([{ kind: 'innovation', asset: 'ETH', available: '0.000000000000000001', frozen: '0.000000000000000000' }]), new Map());
    const { shown, folded } = sectionAccounts(valuation.groups);
    expect(kindsOf(shown)).toEqual(['coin', 'innovation']);
    expect(kindsOf(folded)).toEqual(['fiat', 'defi', 'leveraged', 'options']);
  });
});
