import { houseAccountKinds, type Transparency } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { addDecimal, decimalToString, parseDecimal } from '../../shared/format/decimal.ts';

/**
 * The transparency page's house accounts (issue 22): their order, their names and one line on what
 * each is, and the figures read off their results by UTC day. Every amount stays a decimal string.
 */

export type HouseAccount = Transparency['houses'][number];

const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) of a time, as the server names its days. */
export function utcDay(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** The houses users trade against first, then the insurance fund, the fees and the treasuries; within a kind by label and asset. */
export function sortHouses(houses: readonly HouseAccount[]): HouseAccount[] {
  const rank = (house: HouseAccount) => houseAccountKinds.indexOf(house.kind);
  return [...houses].sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label) || a.asset.localeCompare(b.asset));
}

/** Zero at the account's scale (the balance is written with it). */
const zeroOf = (house: HouseAccount) => ({ minor: 0n, scale: parseDecimal(house.balance).scale });

/** What the day's entries moved in or out of the account (zero when it has none that day). */
export function changeOn(house: HouseAccount, day: string): string {
  return house.days.find((each) => each.day === day)?.change ?? decimalToString(zeroOf(house));
}

/** The sum of the days listed: the account's result over the last 30 UTC days. */
export function totalChange(house: HouseAccount): string {
  return decimalToString(house.days.reduce((sum, each) => addDecimal(sum, parseDecimal(each.change)), zeroOf(house)));
}

/** A stable name for an account in test ids and element ids: kind, fee label, asset. */
export function houseId(house: HouseAccount): string {
  return [house.kind, house.label, house.asset].filter(Boolean).join('-').replace(/[^A-Za-z0-9_-]/g, '_');
}

const names: Record<HouseAccount['kind'], { name: MessageKey; what: MessageKey }> = {
  options_house: { name: 'web.transparency.house.options_house', what: 'web.transparency.house.options_house.what' },
  leverage_house: { name: 'web.transparency.house.leverage_house', what: 'web.transparency.house.leverage_house.what' },
  insurance_fund: { name: 'web.transparency.house.insurance_fund', what: 'web.transparency.house.insurance_fund.what' },
  fees: { name: 'web.transparency.house.fees', what: 'web.transparency.house.fees.what' },
  earn_treasury: { name: 'web.transparency.house.earn_treasury', what: 'web.transparency.house.earn_treasury.what' },
  lending_treasury: { name: 'web.transparency.house.lending_treasury', what: 'web.transparency.house.lending_treasury.what' },
};

/** The leveraged and futures trading fees are a fee account of their own (the server's LEVERAGE_FEE_LABEL). */
const LEVERAGE_FEE_LABEL = 'leverage';

/** The account's name and its one line, as message keys with their values. */
export function houseText(house: HouseAccount): { name: MessageKey; what: MessageKey; values: Record<string, string> } {
  if (house.kind === 'fees' && house.label === LEVERAGE_FEE_LABEL) {
    return { name: 'web.transparency.house.feesLeverage', what: 'web.transparency.house.feesLeverage.what', values: {} };
  }
  if (house.kind === 'fees' && house.label !== '') {
    return { name: 'web.transparency.house.feesOther', what: 'web.transparency.house.feesOther.what', values: { label: house.label } };
  }
  return { ...names[house.kind], values: {} };
}
