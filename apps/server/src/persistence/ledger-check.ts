import { readProofNode } from '@keel/domain';
import type { Queryable } from './db.ts';
import { inviteRewardChecks } from './invite-rewards-check.ts';

export interface LedgerCheckResult {
  ok: boolean;
  /** One line per broken invariant, with the rows that break it (bounded). */
  problems: string[];
  counts: { accounts: number; entries: number; postings: number; openHolds: number };
}

const SAMPLE = 20;

/**
 * The reconciliation check (`npm run ledger:check`): every entry sums to zero per asset; every
 * posting is in its account's asset; every balance equals the sum of its postings; no user balance
 * is negative; every account's frozen part equals its open holds; contracts and leveraged positions
 * match their holds, and the platform accounts only they post to match their records; earn
 * subscriptions match their holds and payouts, and the earn treasury its entries and promises;
 * loans match their holds and repayments, borrowers their committed credit, and the lending treasury its entries;
 * funding requests and investments match their holds, investments and payouts, and the fund escrow its fills and releases;
 * staff corrections match their entries; transfers to other users match theirs; P2P orders on buy ads their holds, and P2P escrow sits on the traders' fiat accounts; proof-of-liabilities snapshots match the ledger's totals and their roots.
 */
export async function checkLedger(db: Queryable): Promise<LedgerCheckResult> {
  const problems: string[] = [];
  const check = async (label: string, sql: string) => {
    const rows = await db.query(`${sql} LIMIT ${SAMPLE}`);
    if (rows.length > 0) problems.push(`${label}: ${JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
  };
  await check(
    'entries that do not sum to zero per asset',
    'SELECT entry_id, asset, sum(amount_minor)::text AS sum FROM postings GROUP BY entry_id, asset HAVING sum(amount_minor) <> 0',
  );
  await check('entries without postings', 'SELECT e.id FROM journal_entries e WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id)');
  await check(
    'postings in another asset than their account',
    'SELECT p.id, p.asset, a.asset AS account_asset FROM postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE p.asset <> a.asset',
  );
  await check(
    'balances that differ from the sum of their postings',
    `SELECT a.id, a.available_minor::text AS available, coalesce(s.available, 0)::text AS posted_available,
            a.frozen_minor::text AS frozen, coalesce(s.frozen, 0)::text AS posted_frozen
       FROM ledger_accounts a
       LEFT JOIN (SELECT account_id,
                         sum(amount_minor) FILTER (WHERE bucket = 'available') AS available,
                         sum(amount_minor) FILTER (WHERE bucket = 'frozen') AS frozen
                    FROM postings GROUP BY account_id) s ON s.account_id = a.id
      WHERE a.available_minor <> coalesce(s.available, 0) OR a.frozen_minor <> coalesce(s.frozen, 0)`,
  );
  await check(
    'user balances below zero',
    'SELECT id, available_minor::text, frozen_minor::text FROM ledger_accounts WHERE (user_id IS NOT NULL OR NOT allow_negative) AND (available_minor < 0 OR frozen_minor < 0)',
  );
  await check(
    'frozen parts that differ from their open holds',
    `SELECT a.id, a.frozen_minor::text AS frozen, coalesce(h.held, 0)::text AS held
       FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, sum(amount_minor) AS held FROM ledger_holds WHERE status = 'open' GROUP BY account_id) h
         ON h.account_id = a.id
      WHERE a.frozen_minor <> coalesce(h.held, 0)`,
  );
  // Contracts (issue 7): each open order's stake is an open hold of the same amount; a settled
  // order's hold is closed by its settlement entry; and the options house account holds exactly
  // the sum of what settled orders lost minus what they won (nothing else posts to it).
  await check(
    'contracts whose stake hold does not match their state',
    `SELECT o.id, o.status, h.status AS hold_status
       FROM option_orders o JOIN ledger_holds h ON h.id = o.hold_id
      WHERE (o.status = 'open' AND (h.status <> 'open' OR h.amount_minor <> o.stake_minor))
         OR (o.status <> 'open' AND (h.status = 'open' OR h.closed_entry_id IS DISTINCT FROM o.settle_entry_id))`,
  );
  await check(
    'options house balance that differs from the settled contracts',
    `SELECT a.id, a.available_minor::text AS balance, coalesce(s.result, 0)::text AS settled_result
       FROM ledger_accounts a
       LEFT JOIN (SELECT -sum(profit_minor) AS result FROM option_orders WHERE status <> 'open') s ON true
      WHERE a.user_id IS NULL AND a.kind = 'options_house' AND a.label = '' AND a.asset = 'USDT'
        AND a.available_minor <> coalesce(s.result, 0)`,
  );
  // Leveraged and futures positions (issue 16, ADR 0034): an open position's margin is its open
  // hold, a closed one's hold is closed; the house, the insurance fund and the leverage fee
  // account hold exactly the sums of the positions' events (nothing else posts to them); the
  // house's open exposure per market and side is the sum of its open positions' entry notionals.
  await check(
    'positions whose margin hold does not match their state',
    `SELECT p.id, p.status, p.margin_minor::text AS margin, h.status AS hold_status, h.amount_minor::text AS held
       FROM leverage_positions p JOIN ledger_holds h ON h.id = p.hold_id
      WHERE (p.status = 'open' AND (h.status <> 'open' OR h.amount_minor <> p.margin_minor))
         OR (p.status <> 'open' AND h.status = 'open')`,
  );
  await check(
    'leverage platform balances that differ from the positions\' events',
    `WITH sums AS (
       SELECT coalesce(-sum(pnl_minor) FILTER (WHERE kind IN ('close', 'take_profit', 'stop_loss', 'liquidation')), 0)
                - coalesce(sum(margin_change_minor) FILTER (WHERE kind IN ('funding', 'interest')), 0) AS house,
              -- the insurance fund also holds what approved staff corrections put in or took out (ADR 0039)
              coalesce(sum(insurance_minor), 0)
                + (SELECT coalesce(sum(amount_minor), 0) FROM staff_corrections WHERE status = 'approved' AND house_account = 'insurance_fund') AS insurance,
              -- the leverage fee account also pays the invitation rewards of leverage fees (ADR 0045), which its own rule proves
              coalesce(sum(fee_minor), 0)
                - (SELECT coalesce(sum(r.reward_minor), 0) FROM invite_reward_amounts r JOIN ledger_accounts fa ON fa.id = r.fee_account_id AND fa.label = 'leverage') AS fees
         FROM leverage_position_events)
     SELECT a.kind, a.available_minor::text AS balance,
            (CASE a.kind WHEN 'leverage_house' THEN s.house WHEN 'insurance_fund' THEN s.insurance ELSE s.fees END)::text AS from_events
       FROM ledger_accounts a CROSS JOIN sums s
      WHERE a.user_id IS NULL AND a.asset = 'USDT'
        AND ((a.kind = 'leverage_house' AND a.label = '') OR (a.kind = 'insurance_fund' AND a.label = '') OR (a.kind = 'fees' AND a.label = 'leverage'))
        AND a.available_minor <> (CASE a.kind WHEN 'leverage_house' THEN s.house WHEN 'insurance_fund' THEN s.insurance ELSE s.fees END)`,
  );
  await check(
    'house exposures that differ from the open positions and pending limit orders',
    `SELECT e.symbol, e.side, e.open_notional_minor::text AS exposure, coalesce(p.open, 0)::text AS open_positions
       FROM leverage_exposures e
       LEFT JOIN (SELECT symbol, side, sum(notional) AS open FROM (
                    SELECT symbol, side, entry_notional_minor AS notional FROM leverage_positions WHERE status = 'open'
                    UNION ALL
                    SELECT symbol, side, notional_minor FROM leverage_orders WHERE status = 'pending') x GROUP BY symbol, side) p
         ON p.symbol = e.symbol AND p.side = e.side
      WHERE e.open_notional_minor <> coalesce(p.open, 0)`,
  );
  await check(
    'limit orders whose hold does not match their state',
    `SELECT o.id, o.status, h.status AS hold_status, h.amount_minor::text AS held
       FROM leverage_orders o JOIN ledger_holds h ON h.id = o.hold_id
      WHERE (o.status = 'pending' AND (h.status <> 'open' OR h.amount_minor <> o.margin_minor + o.fee_minor))
         OR (o.status <> 'pending' AND (h.status = 'open' OR h.closed_entry_id IS DISTINCT FROM o.close_entry_id))`,
  );
  // Earn (issue 17, ADR 0035): an active subscription's principal is its open hold on the DeFi
  // account, an ended one's hold was closed by its closing entry; its interest paid is the sum of its
  // payout rows, one per day paid; the earn treasury's balance is what was funded less the interest
  // paid plus the penalties taken (nothing else posts to it), and it covers what the active
  // subscriptions are still owed, which the obligations row states.
  await check(
    'earn subscriptions whose principal hold does not match their state',
    `SELECT s.id, s.status, h.status AS hold_status, h.amount_minor::text AS held
       FROM earn_subscriptions s JOIN ledger_holds h ON h.id = s.hold_id
      WHERE (s.status = 'active' AND (h.status <> 'open' OR h.amount_minor <> s.principal_minor OR h.account_id <> s.account_id))
         OR (s.status <> 'active' AND (h.status = 'open' OR h.closed_entry_id IS DISTINCT FROM s.close_entry_id))`,
  );
  await check(
    'earn subscriptions whose interest paid differs from their payouts',
    `SELECT s.id, s.paid_days, s.interest_paid_minor::text AS paid, coalesce(p.days, 0) AS payout_days, coalesce(p.interest, 0)::text AS payouts
       FROM earn_subscriptions s
       LEFT JOIN (SELECT subscription_id, count(*)::int AS days, sum(interest_minor) AS interest FROM earn_payouts GROUP BY subscription_id) p
         ON p.subscription_id = s.id
      WHERE s.paid_days <> coalesce(p.days, 0) OR s.interest_paid_minor <> coalesce(p.interest, 0)`,
  );
  await check(
    'earn treasury postings that are not funding, interest or penalties, or interest entries that differ from the payouts',
    `SELECT a.asset, e.reason, sum(p.amount_minor)::text AS posted
       FROM ledger_accounts a JOIN postings p ON p.account_id = a.id JOIN journal_entries e ON e.id = p.entry_id
      WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'earn'
      GROUP BY a.asset, e.reason
     HAVING e.reason NOT IN ('earn.fund', 'earn.interest', 'earn.redeem', 'staff.correction')
         OR (e.reason = 'earn.interest' AND -sum(p.amount_minor) <> (SELECT coalesce(sum(x.interest_minor), 0) FROM earn_payouts x
              JOIN earn_subscriptions s ON s.id = x.subscription_id WHERE s.asset = a.asset))
         OR (e.reason = 'earn.redeem' AND sum(p.amount_minor) <> (SELECT coalesce(sum(s.penalty_minor), 0) FROM earn_subscriptions s
              WHERE s.asset = a.asset AND s.status = 'redeemed'))`,
  );
  await check(
    'earn obligations that differ from what active subscriptions are owed, or that the earn treasury does not cover',
    `SELECT o.asset, o.owed_minor::text AS owed, coalesce(s.owed, 0)::text AS owed_by_subscriptions, coalesce(a.available_minor, 0)::text AS treasury
       FROM earn_obligations o
       LEFT JOIN (SELECT asset, sum(div(principal_minor * daily_rate_ppm, 1000000) * (cycle_days - paid_days)) AS owed
                    FROM earn_subscriptions WHERE status = 'active' GROUP BY asset) s ON s.asset = o.asset
       LEFT JOIN ledger_accounts a ON a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'earn' AND a.asset = o.asset
      WHERE o.owed_minor <> coalesce(s.owed, 0) OR coalesce(a.available_minor, 0) < o.owed_minor`,
  );
  await check(
    'earn products whose active principal differs from their active subscriptions',
    `SELECT p.id, p.active_minor::text AS active, coalesce(s.active, 0)::text AS subscribed
       FROM earn_products p
       LEFT JOIN (SELECT product_id, sum(principal_minor) AS active FROM earn_subscriptions WHERE status = 'active' GROUP BY product_id) s
         ON s.product_id = p.id
      WHERE p.active_minor <> coalesce(s.active, 0)`,
  );
  // Loans (issue 18, ADR 0036): a pending or passed loan's collateral is its open hold on the coin
  // account, an ended one's hold was closed by its closing entry; its repaid total is the sum of its
  // repayments, split into interest and principal exactly; a borrower's committed credit is what their
  // pending applications ask and their passed loans still owe in principal; the lending treasury is
  // posted to only by funding, payouts, repayments and liquidations, and they add up to the loans'.
  await check(
    'loans whose collateral hold does not match their state',
    `SELECT l.id, l.status, h.status AS hold_status, h.amount_minor::text AS held
       FROM loans l JOIN ledger_holds h ON h.id = l.hold_id
      WHERE (l.status IN ('pending', 'passed') AND (h.status <> 'open' OR h.amount_minor <> l.collateral_minor OR h.account_id <> l.collateral_account_id))
         OR (l.status NOT IN ('pending', 'passed') AND (h.status = 'open' OR h.closed_entry_id IS DISTINCT FROM l.close_entry_id))`,
  );
  await check(
    'loans whose repaid amounts differ from their repayments',
    `SELECT l.id, l.repaid_minor::text AS repaid, coalesce(r.amount, 0)::text AS repayments
       FROM loans l
       LEFT JOIN (SELECT loan_id, sum(amount_minor) AS amount, sum(interest_minor) AS interest, sum(principal_minor) AS principal
                    FROM loan_repayments GROUP BY loan_id) r ON r.loan_id = l.id
      WHERE l.repaid_minor <> coalesce(r.amount, 0) OR l.interest_paid_minor <> coalesce(r.interest, 0)
         OR (l.status = 'passed' AND l.principal_outstanding_minor <> l.amount_minor - coalesce(r.principal, 0))
         OR (l.status = 'repaid' AND coalesce(r.principal, 0) <> l.amount_minor)`,
  );
  await check(
    'borrowers whose committed credit differs from their pending applications and outstanding principal',
    `SELECT b.user_id, b.committed_minor::text AS committed, coalesce(l.committed, 0)::text AS by_loans
       FROM loan_borrowers b
       LEFT JOIN (SELECT user_id, sum(CASE WHEN status = 'pending' THEN amount_minor ELSE principal_outstanding_minor END) AS committed
                    FROM loans WHERE status IN ('pending', 'passed') GROUP BY user_id) l ON l.user_id = b.user_id
      WHERE b.committed_minor <> coalesce(l.committed, 0)`,
  );
  await check(
    'lending treasury postings that are not funding, payouts or repayments, or that differ from the loans',
    `SELECT e.reason, sum(p.amount_minor)::text AS posted
       FROM ledger_accounts a JOIN postings p ON p.account_id = a.id JOIN journal_entries e ON e.id = p.entry_id
      WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'lending'
      GROUP BY e.reason
     HAVING e.reason NOT IN ('loan.fund', 'loan.disburse', 'loan.repay', 'loan.liquidate', 'staff.correction')
         OR (e.reason = 'loan.disburse' AND -sum(p.amount_minor) <> (SELECT coalesce(sum(amount_minor), 0) FROM loans WHERE disburse_entry_id IS NOT NULL))
         OR (e.reason IN ('loan.repay', 'loan.liquidate') AND sum(p.amount_minor) <> (SELECT coalesce(sum(r.amount_minor), 0) FROM loan_repayments r
              WHERE r.source = CASE WHEN e.reason = 'loan.repay' THEN 'borrower' ELSE 'collateral' END))`,
  );
  // Staff corrections (issue 22, ADR 0039): every `staff.correction` entry is the one entry of an
  // approved correction, moving exactly its amount into (or out of) its target account, and every
  // approved correction has its entry.
  await check(
    'staff correction entries that differ from the approved corrections',
    `SELECT c.id, c.status, e.id AS entry_id, t.moved::text AS moved, c.amount_minor::text AS amount
       FROM staff_corrections c
       FULL JOIN (SELECT id FROM journal_entries WHERE reason = 'staff.correction') e ON e.id = c.entry_id
       LEFT JOIN LATERAL (
         SELECT sum(p.amount_minor) AS moved FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
          WHERE p.entry_id = e.id
            AND ((c.target = 'user' AND a.user_id = c.user_id AND a.kind = c.account_kind)
              OR (c.house_account = 'earn_treasury' AND a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'earn')
              OR (c.house_account = 'lending_treasury' AND a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'lending')
              OR (c.house_account = 'insurance_fund' AND a.user_id IS NULL AND a.kind = 'insurance_fund' AND a.label = '')
              OR (c.house_account = 'merchant_float' AND a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'merchant:' || c.merchant_id::text))
       ) t ON true
      WHERE (c.id IS NULL)
         OR (c.status = 'approved' AND (e.id IS NULL OR t.moved IS DISTINCT FROM c.amount_minor))
         OR (c.status <> 'approved' AND c.entry_id IS NOT NULL)`,
  );
  // C2C orders (issue 19, ADR 0043): a deposit's USDT is its hold on the merchant's float from the
  // acceptance, a withdrawal's its hold on the user's fiat account from the request — open with the
  // order's USDT while the order is open, posted by the order's closing entry when it succeeded,
  // released when it failed; and a float is posted to only by corrections and C2C orders.
  await check(
    'C2C orders whose hold differs from their state',
    `SELECT r.id, r.kind, r.status, h.status AS hold_status, h.amount_minor::text AS held, r.usdt_minor::text AS usdt
       FROM c2c_requests r LEFT JOIN ledger_holds h ON h.id = r.hold_id LEFT JOIN ledger_accounts a ON a.id = h.account_id
      WHERE (r.hold_id IS NULL AND (r.kind = 'withdrawal' OR r.status IN ('awaiting_payment', 'paid', 'appealing', 'succeeded')))
         OR (r.hold_id IS NOT NULL AND (h.amount_minor <> r.usdt_minor
           OR (r.kind = 'deposit' AND (a.user_id IS NOT NULL OR a.label <> 'merchant:' || r.merchant_id::text))
           OR (r.kind = 'withdrawal' AND (a.user_id IS DISTINCT FROM r.user_id OR a.kind <> 'fiat'))
           OR (r.status NOT IN ('succeeded', 'failed') AND h.status <> 'open')
           OR (r.status = 'succeeded' AND (h.status <> 'posted' OR h.closed_entry_id IS DISTINCT FROM r.closing_entry_id))
           OR (r.status = 'failed' AND h.status <> 'released')))`,
  );
  await check(
    'merchant float postings that are not corrections or C2C orders',
    `SELECT e.id, e.reason FROM ledger_accounts a JOIN postings p ON p.account_id = a.id JOIN journal_entries e ON e.id = p.entry_id
      WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label LIKE 'merchant:%'
        AND e.reason NOT IN ('staff.correction', 'c2c.float_hold', 'c2c.deposit', 'c2c.withdrawal', 'c2c.release')`,
  );
  // P2P orders on buy ads (issue 19): the seller's coins sold into a buy ad are the order's own
  // hold (on their fiat account) — open with the order's quantity while the order is open, closed
  // once it ended (posted by the release, released by a cancellation, expiry or refund).
  await check(
    'P2P orders on buy ads whose escrow differs from their hold',
    `SELECT o.id, o.status, h.status AS hold_status, h.amount_minor::text AS held, o.quantity_minor::text AS quantity
       FROM p2p_orders o JOIN ledger_holds h ON h.id = o.hold_id
      WHERE (o.status IN ('awaiting_payment', 'paid', 'appealing') AND (h.status <> 'open' OR h.amount_minor <> o.quantity_minor))
         OR (o.status NOT IN ('awaiting_payment', 'paid', 'appealing') AND h.status = 'open')
         OR (o.status = 'released' AND (h.status <> 'posted' OR h.closed_entry_id IS DISTINCT FROM o.closing_entry_id))`,
  );
  // P2P escrow sits on the fiat account (decisions page, "Account types"; the migration
  // 20261128001000 moved the holds placed on coin accounts before): every open hold of a sell ad is
  // on its owner's fiat account, every open hold of a buy-ad order on its seller's.
  await check(
    'P2P escrow holds not on their trader\'s fiat account',
    `SELECT h.id, h.reference_type, h.reference_id, a.kind, a.user_id
       FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
       LEFT JOIN p2p_ads ad ON h.reference_type = 'p2p_ad' AND ad.hold_id = h.id
       LEFT JOIN p2p_orders o ON h.reference_type = 'p2p_order' AND o.hold_id = h.id
      WHERE h.status = 'open' AND h.reference_type IN ('p2p_ad', 'p2p_order')
        AND (a.kind <> 'fiat' OR a.user_id IS DISTINCT FROM coalesce(ad.owner_id, o.seller_id))`,
  );
  // Transfers to another user (issue 19): every `transfer.user` entry is the one entry of a transfer
  // row, taking amount + fee from the sender's coin account, giving the amount to the recipient's and
  // the fee to the fee account, and nothing else.
  await check(
    'transfers to other users whose entries differ from their rows',
    `SELECT t.id, e.id AS entry_id, m.sender::text AS sender, m.recipient::text AS recipient, m.fee::text AS fee, m.other::text AS other
       FROM user_transfers t
       FULL JOIN (SELECT id FROM journal_entries WHERE reason = 'transfer.user') e ON e.id = t.entry_id
       LEFT JOIN LATERAL (
         SELECT sum(p.amount_minor) FILTER (WHERE a.user_id = t.sender_id AND a.kind = 'coin') AS sender,
                sum(p.amount_minor) FILTER (WHERE a.user_id = t.recipient_id AND a.kind = 'coin') AS recipient,
                sum(p.amount_minor) FILTER (WHERE a.user_id IS NULL AND a.kind = 'fees' AND a.label = '') AS fee,
                count(*) FILTER (WHERE NOT ((a.user_id IN (t.sender_id, t.recipient_id) AND a.kind = 'coin') OR (a.user_id IS NULL AND a.kind = 'fees' AND a.label = ''))
                                    OR p.asset <> t.asset OR p.bucket <> 'available') AS other
           FROM postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE p.entry_id = e.id
       ) m ON true
      WHERE t.id IS NULL OR e.id IS NULL
         OR m.sender IS DISTINCT FROM -(t.amount_minor + t.fee_minor) OR m.recipient IS DISTINCT FROM t.amount_minor
         OR m.fee IS DISTINCT FROM t.fee_minor OR m.other <> 0`,
  );
  // Invitation rewards (issue 20, ADR 0045): entries, rows and the fees they came from.
  for (const rule of inviteRewardChecks) await check(rule.label, rule.sql);
  // The fund section (issue 18, ADR 0037): a request's pledge is its open hold until it ends; an
  // investment is held until the fill (then its hold was posted by the fill's entry) or the refund;
  // what a request raised is the sum of its investments; the fund escrow holds what fills brought in
  // less the tranches released, and nothing else posts to it; what investors were paid at the end is
  // what the request paid out.
  await check(
    'funding requests whose collateral hold does not match their state',
    `SELECT r.id, r.status, h.status AS hold_status, h.amount_minor::text AS held
       FROM fund_requests r JOIN ledger_holds h ON h.id = r.hold_id
      WHERE (r.status IN ('review', 'open', 'funded') AND (h.status <> 'open' OR h.amount_minor <> r.collateral_minor OR h.account_id <> r.collateral_account_id))
         OR (r.status NOT IN ('review', 'open', 'funded') AND (h.status = 'open' OR h.closed_entry_id IS DISTINCT FROM r.close_entry_id))`,
  );
  await check(
    'fund investments whose hold does not match their state',
    `SELECT i.id, i.status, h.status AS hold_status
       FROM fund_investments i JOIN ledger_holds h ON h.id = i.hold_id JOIN fund_requests r ON r.id = i.request_id
      WHERE (i.status = 'held' AND (h.status <> 'open' OR h.amount_minor <> i.amount_minor OR r.status <> 'open'))
         OR (i.status = 'invested' AND (h.status <> 'posted' OR h.closed_entry_id IS DISTINCT FROM r.fill_entry_id))
         OR (i.status = 'refunded' AND (h.status <> 'released' OR h.closed_entry_id IS DISTINCT FROM r.close_entry_id))`,
  );
  await check(
    'funding requests whose raised amount or payout differs from their investments',
    `SELECT r.id, r.raised_minor::text AS raised, coalesce(i.invested, 0)::text AS invested, r.paid_out_minor::text AS paid_out, coalesce(i.paid, 0)::text AS paid
       FROM fund_requests r
       LEFT JOIN (SELECT request_id, sum(amount_minor) AS invested, sum(coalesce(paid_minor, 0)) AS paid, count(*) AS n FROM fund_investments GROUP BY request_id) i
         ON i.request_id = r.id
      WHERE r.raised_minor <> coalesce(i.invested, 0) OR r.investors <> coalesce(i.n, 0)
         OR (r.status = 'funded' AND r.raised_minor <> r.amount_minor)
         OR (r.status IN ('repaid', 'defaulted', 'expired') AND r.paid_out_minor IS DISTINCT FROM coalesce(i.paid, 0))`,
  );
  await check(
    'fund escrow postings that are not fills or releases, or that differ from the requests',
    `SELECT e.reason, sum(p.amount_minor)::text AS posted
       FROM ledger_accounts a JOIN postings p ON p.account_id = a.id JOIN journal_entries e ON e.id = p.entry_id
      WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'fund'
      GROUP BY e.reason
     HAVING e.reason NOT IN ('fund.fill', 'fund.release')
         OR (e.reason = 'fund.fill' AND sum(p.amount_minor) <> (SELECT coalesce(sum(amount_minor), 0) FROM fund_requests WHERE fill_entry_id IS NOT NULL))
         OR (e.reason = 'fund.release' AND -sum(p.amount_minor) <> (SELECT coalesce(sum(released_minor), 0) FROM fund_requests))`,
  );
  // Proof of liabilities (issue 22, ADR 0040): every published snapshot's totals are the users'
  // balances summed by SQL in the snapshot's own transaction, the sums its stored root carries, and
  // it has a leaf row for every leaf it counts.
  const snapshots = await db.query<{ id: bigint; totals: unknown; ledger_totals: unknown; asset_count: number; leaf_count: number; leaves: number; root: Uint8Array }>(
    `SELECT s.id, s.totals_minor AS totals, s.ledger_totals_minor AS ledger_totals, jsonb_array_length(s.assets) AS asset_count, s.leaf_count,
            (SELECT count(*) FROM liability_snapshot_leaves x WHERE x.snapshot_id = s.id)::int AS leaves, l.nodes AS root
       FROM liability_snapshots s
       JOIN liability_snapshot_levels l ON l.snapshot_id = s.id AND l.level = (SELECT max(level) FROM liability_snapshot_levels m WHERE m.snapshot_id = s.id)
      WHERE s.status = 'published' ORDER BY s.id`,
  );
  const amounts = (value: unknown): string[] => (typeof value === 'string' ? (JSON.parse(value) as string[]) : (value as string[]));
  const wrongSnapshots = snapshots
    .filter((snapshot) => {
      const rootSums = readProofNode(Uint8Array.from(snapshot.root), Number(snapshot.asset_count)).sumsMinor.map(String);
      return amounts(snapshot.totals).join() !== amounts(snapshot.ledger_totals).join() || rootSums.join() !== amounts(snapshot.totals).join() || snapshot.leaves !== snapshot.leaf_count;
    })
    .map((snapshot) => snapshot.id.toString());
  if (wrongSnapshots.length > 0) problems.push(`liability snapshots whose totals differ from the ledger's or from their root: ${JSON.stringify(wrongSnapshots.slice(0, SAMPLE))}`);
  const [counts] = await db.query<{ accounts: number; entries: number; postings: number; open_holds: number }>(
    `SELECT (SELECT count(*) FROM ledger_accounts)::int AS accounts, (SELECT count(*) FROM journal_entries)::int AS entries,
            (SELECT count(*) FROM postings)::int AS postings, (SELECT count(*) FROM ledger_holds WHERE status = 'open')::int AS open_holds`,
  );
  return {
    ok: problems.length === 0,
    problems,
    counts: { accounts: counts!.accounts, entries: counts!.entries, postings: counts!.postings, openHolds: counts!.open_holds },
  };
}
