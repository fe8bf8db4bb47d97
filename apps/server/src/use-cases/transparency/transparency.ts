import type { Transparency } from '@keel/contracts';
import { formatAmount, P2P_FEE_BPS, SWAP_FEE_BPS } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { assetScales } from '../assets/account-balances.ts';
import { EARN_TREASURY_LABEL } from '../earn/earn-support.ts';
import { PRODUCT_COLUMNS, type EarnProductRow, productView } from '../earn/earn-views.ts';
import { publishedLeverageTerms } from '../leverage/open-position.ts';
import { readLoanProducts } from '../loans/loan-products.ts';
import { LENDING_TREASURY_LABEL } from '../loans/loans-support.ts';
import { publishedCreditPolicy } from '../loans/loan-views.ts';
import { publishedOptionsTerms } from '../options/place-option-order.ts';
import { publishedWalletRules } from '../wallet/wallet-overview.ts';

// The public transparency page (issue 22): what the platform's own accounts hold and did, and the
// published rules — each built by the same function the use case that enforces it reads, so the
// page cannot show one number while the server applies another.

const DAY_MS = 86_400_000;
const RESULT_DAYS = 30;
const percentOfBps = (bps: bigint | number) => formatAmount(BigInt(bps), 2);

type HouseKind = Transparency['houses'][number]['kind'];

/** Which platform accounts are shown, as what: the houses users trade against, the insurance fund, fees, and the two treasuries. */
const HOUSE_SELECTION = `(a.kind IN ('options_house', 'leverage_house', 'insurance_fund', 'fees'))
   OR (a.kind = 'treasury' AND a.label IN ('${EARN_TREASURY_LABEL}', '${LENDING_TREASURY_LABEL}'))`;

function houseKind(kind: string, label: string): HouseKind {
  if (kind === 'treasury') return label === EARN_TREASURY_LABEL ? 'earn_treasury' : 'lending_treasury';
  return kind as HouseKind;
}

export async function transparency(deps: Pick<Deps, 'db' | 'now' | 'config' | 'wallet'>): Promise<Transparency> {
  const nowMs = deps.now().getTime();
  const since = new Date(Math.floor(nowMs / DAY_MS) * DAY_MS - (RESULT_DAYS - 1) * DAY_MS);
  const scales = await assetScales(deps.db);
  const scaleOf = (asset: string) => scales.get(asset) ?? 0;
  const accounts = await deps.db.query<{ id: bigint; kind: string; label: string; asset: string; balance: string }>(
    `SELECT a.id, a.kind, a.label, a.asset, (a.available_minor + a.frozen_minor)::text AS balance
       FROM ledger_accounts a WHERE a.user_id IS NULL AND (${HOUSE_SELECTION}) ORDER BY a.kind, a.label, a.asset`,
  );
  const days = await deps.db.query<{ account_id: bigint; day: string; change: string }>(
    `SELECT p.account_id, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(p.amount_minor)::text AS change
       FROM postings p JOIN journal_entries e ON e.id = p.entry_id
      WHERE p.account_id = ANY($1::bigint[]) AND e.created_at >= $2
      GROUP BY 1, 2 ORDER BY 2 DESC`,
    [accounts.map((account) => account.id.toString()), since],
  );
  const houses = accounts.map((account) => ({
    kind: houseKind(account.kind, account.label),
    label: account.kind === 'fees' ? account.label : '',
    asset: account.asset,
    accountId: account.id.toString(),
    balance: formatAmount(toMinor(account.balance), scaleOf(account.asset)),
    days: days
      .filter((row) => row.account_id === account.id)
      .map((row) => ({ day: row.day, change: formatAmount(toMinor(row.change), scaleOf(account.asset)) })),
  }));
  const yieldRows = await deps.db.query<{ asset: string; total: string; recent: string }>(
    `SELECT a.asset, (-sum(p.amount_minor))::text AS total, (-coalesce(sum(p.amount_minor) FILTER (WHERE e.created_at >= $2), 0))::text AS recent
       FROM postings p JOIN journal_entries e ON e.id = p.entry_id JOIN ledger_accounts a ON a.id = p.account_id
      WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label = $1 AND e.reason = 'earn.interest'
      GROUP BY a.asset ORDER BY a.asset`,
    [EARN_TREASURY_LABEL, since],
  );
  const earnProducts = await deps.db.query<EarnProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM earn_products ORDER BY open DESC, kind, id`);
  return {
    generatedAtMs: nowMs,
    houses,
    earnYieldPaid: yieldRows.map((row) => ({
      asset: row.asset,
      total: formatAmount(toMinor(row.total), scaleOf(row.asset)),
      last30Days: formatAmount(toMinor(row.recent), scaleOf(row.asset)),
    })),
    rules: {
      swap: { spreadPercent: percentOfBps(deps.config.SWAP_SPREAD_BPS), feePercent: percentOfBps(SWAP_FEE_BPS), quoteValidSeconds: deps.config.SWAP_QUOTE_TTL_MS / 1000 },
      p2p: { releaseFeePercent: percentOfBps(P2P_FEE_BPS) },
      wallet: publishedWalletRules(deps),
      options: publishedOptionsTerms(deps.config),
      leverage: publishedLeverageTerms(deps),
      earn: {
        products: earnProducts.map((row) => {
          const { userActive: _mine, ...product } = productView(row, scaleOf(row.asset), 0n);
          return product;
        }),
      },
      loans: { products: await readLoanProducts(deps.db), policy: publishedCreditPolicy(deps.config) },
    },
  };
}
