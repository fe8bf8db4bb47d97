import { type ContractData, type listAccountsContract, userAccountKinds } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

export type AccountBalance = ContractData<typeof listAccountsContract>['accounts'][number];
export type AccountKind = AccountBalance['kind'];
export type AssetCode = AccountBalance['asset'];

export { userAccountKinds as accountKinds };

/** The assets of spec section 1, in the order screens list them. */
export const assetCodes: readonly AssetCode[] = ['USDT', 'BTC', 'ETH'];

/** The account types of spec section 3. */
export const accountKindKeys: Record<AccountKind, MessageKey> = {
  coin: 'web.account.coin',
  fiat: 'web.account.fiat',
  innovation: 'web.account.innovation',
  defi: 'web.account.defi',
  leveraged: 'web.account.leveraged',
  options: 'web.account.options',
};

/**
 * What each account type is for, in one line on the assets page (decisions page, "Account types").
 * The innovation account is reserved: it is listed only if it ever holds something.
 */
export const accountPurposeKeys: Record<AccountKind, MessageKey> = {
  coin: 'web.account.purpose.coin',
  fiat: 'web.account.purpose.fiat',
  innovation: 'web.account.purpose.innovation',
  defi: 'web.account.purpose.defi',
  leveraged: 'web.account.purpose.leveraged',
  options: 'web.account.purpose.options',
};

/**
 * The account types a form offers: all but the reserved innovation account, which is offered only
 * while it holds something (so what is in it can still be moved out).
 */
export function offeredAccountKinds(accounts: readonly AccountBalance[] | null): AccountKind[] {
  const innovationHolds = accounts?.some((account) => account.kind === 'innovation' && (/[1-9]/.test(account.available) || /[1-9]/.test(account.frozen)));
  return userAccountKinds.filter((kind) => kind !== 'innovation' || innovationHolds === true);
}

/** Decimals of each asset (ADR 0004); the balances answer carries them too, this is the fallback. */
const knownScales: Record<AssetCode, number> = { USDT: 6, BTC: 8, ETH: 18 };

/** An asset's scale, read from an amount the API wrote at that scale when there is one. */
export function scaleOf(asset: AssetCode, accounts?: readonly AccountBalance[]): number {
  const sample = accounts?.find((account) => account.asset === asset)?.available;
  if (sample !== undefined) {
    const point = sample.indexOf('.');
    return point < 0 ? 0 : sample.length - point - 1;
  }
  return knownScales[asset];
}

/** The balance of one account type and asset; zero when the account was never used. */
export function balanceOf(accounts: readonly AccountBalance[] | null, kind: AccountKind, asset: AssetCode): AccountBalance | undefined {
  return accounts?.find((account) => account.kind === kind && account.asset === asset);
}
