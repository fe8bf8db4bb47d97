import { addDecimal, type Decimal, decimalToString, parseDecimal, signOf, USDT_SCALE, valueInUsdt } from '../../shared/format/decimal.ts';
import { type AccountBalance, type AccountKind, accountKinds, type AssetCode, assetCodes } from './accounts.ts';

export interface ValuedBalance extends AccountBalance {
  /** available + frozen, exact. */
  total: string;
  /** The total in USDT at the last recorded price, rounded down; null when a held asset has no price. */
  valueUsdt: string | null;
}

export interface AccountGroup {
  kind: AccountKind;
  balances: ValuedBalance[];
  /** Sum of the values; null when a non-zero balance has no price. */
  valueUsdt: string | null;
}

export interface Valuation {
  groups: AccountGroup[];
  /** Sum over every account; null when a non-zero balance has no price. */
  totalUsdt: string | null;
  /** Assets held (non-zero) that have no recorded price yet. */
  unpriced: AssetCode[];
}

const zero: Decimal = { minor: 0n, scale: USDT_SCALE };

/**
 * Values every balance in USDT with the given prices (USDT per unit; USDT itself is 1). Exact
 * decimals throughout; each value rounds down to a millionth of a USDT, and the totals are sums of
 * the shown values, so the figures on the screen always add up.
 */
export function valueBalances(accounts: readonly AccountBalance[], prices: ReadonlyMap<string, string>): Valuation {
  const unpriced = new Set<AssetCode>();
  let total: Decimal | null = zero;
  const groups = accountKinds.map((kind): AccountGroup => {
    let groupTotal: Decimal | null = zero;
    const balances = assetCodes.flatMap((asset) => {
      const balance = accounts.find((account) => account.kind === kind && account.asset === asset);
      if (!balance) return [];
      const sum = addDecimal(parseDecimal(balance.available), parseDecimal(balance.frozen));
      // Nothing held is worth nothing, priced or not.
      const price = asset === 'USDT' || signOf(sum) === 0 ? '1' : prices.get(asset);
      const value = price === undefined ? null : valueInUsdt(decimalToString(sum), price);
      if (value === null) {
        unpriced.add(asset);
        groupTotal = null;
      }
      if (value !== null && groupTotal !== null) groupTotal = addDecimal(groupTotal, value);
      return [{ ...balance, total: decimalToString(sum), valueUsdt: value === null ? null : decimalToString(value) }];
    });
    if (groupTotal === null) total = null;
    else if (total !== null) total = addDecimal(total, groupTotal);
    return { kind, balances, valueUsdt: groupTotal === null ? null : decimalToString(groupTotal) };
  });
  return { groups, totalUsdt: total === null ? null : decimalToString(total), unpriced: assetCodes.filter((asset) => unpriced.has(asset)) };
}

export interface AccountSections {
  /** Listed open: the coin account (where deposits land) and every account holding something. */
  shown: AccountGroup[];
  /** Listed under a fold: the accounts with nothing in them. */
  folded: AccountGroup[];
}

/** True when any balance of the account, usable or frozen, is not zero. */
export function holdsSomething(group: AccountGroup): boolean {
  return group.balances.some((balance) => signOf(parseDecimal(balance.total)) !== 0);
}

/**
 * The assets page's order: the accounts the user has money in first (in the order of spec section
 * 3), the coin account among them even when empty, as it is where a deposit lands; the rest folded.
 * The reserved innovation account is left out unless it holds something: a balance is never hidden.
 */
export function sectionAccounts(groups: readonly AccountGroup[]): AccountSections {
  const shown: AccountGroup[] = [];
  const folded: AccountGroup[] = [];
  for (const group of groups) {
    if (group.kind === 'coin' || holdsSomething(group)) shown.push(group);
    else if (group.kind !== 'innovation') folded.push(group);
  }
  return { shown, folded };
}
