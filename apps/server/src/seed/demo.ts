import { DEFAULT_STAFF_ONE_TIME_PASSWORD_TTL_HOURS } from '@keel/contracts';
import { transferPostings } from '@keel/domain';
import type { Db } from '../persistence/db.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry } from '../persistence/ledger.store.ts';
import { appendAudit } from '../persistence/audit.repository.ts';
import { hashPassword } from '../security/passwords.ts';
import { issueOneTimePassword } from '../use-cases/admin/manage-staff.ts';
import { fundEarnTreasury, insertEarnProduct } from '../use-cases/earn/earn-products.ts';
import { insertLoanProduct } from '../use-cases/loans/loan-products.ts';
import { fundLendingTreasury } from '../use-cases/loans/loans-support.ts';
import { newInitialPassword, newInviteCode } from '../security/tokens.ts';
import { seedDemoContent } from './content-seed.ts';

/** The demo user's starting coin-account balances, in minor units. */
const DEMO_BALANCES: readonly (readonly [string, bigint])[] = [
  ['USDT', 10_000_000_000n], // 10,000 USDT (scale 6)
  ['BTC', 50_000_000n], // 0.5 BTC (scale 8)
  ['ETH', 5_000_000_000_000_000_000n], // 5 ETH (scale 18)
];

/** The demo earn products: the spec's lock-up example (0.3 % a day for 5 days, 0.4 % penalty per remaining day) and a longer financial product. */
const DEMO_LOCKUP = {
  cycleDays: 5,
  dailyRatePpm: 3_000,
  penaltyRatePpm: 4_000,
  payoutMinuteUtc: 0,
  earlyRedemption: true,
  minAmountMinor: 100_000_000n,
  maxAmountMinor: 10_000_000_000n,
  userQuotaMinor: 20_000_000_000n,
  totalQuotaMinor: 1_000_000_000_000n,
};
const DEMO_FINANCIAL = {
  cycleDays: 30,
  dailyRatePpm: 500,
  penaltyRatePpm: 1_000,
  payoutMinuteUtc: 8 * 60,
  earlyRedemption: true,
  minAmountMinor: 10_000_000n,
  maxAmountMinor: 50_000_000_000n,
  userQuotaMinor: 100_000_000_000n,
  totalQuotaMinor: 5_000_000_000_000n,
};

/** The demo loan products (ADR 0036): a week and a month, BTC, ETH or USDT pledged; margin call at 80 %, liquidation at 90 %. */
const DEMO_LOAN_COLLATERAL = [
  { asset: 'BTC', ltvPpm: 650_000 },
  { asset: 'ETH', ltvPpm: 600_000 },
  { asset: 'USDT', ltvPpm: 750_000 },
];
const DEMO_LOANS = [
  { name: 'Loan, 7 days', cycleDays: 7, dailyRatePpm: 800 },
  { name: 'Loan, 30 days', cycleDays: 30, dailyRatePpm: 1_000 },
].map((product) => ({
  ...product,
  minAmountMinor: 100_000_000n, // 100 USDT
  maxAmountMinor: 50_000_000_000n, // 50,000 USDT
  collateral: DEMO_LOAN_COLLATERAL,
  marginCallLtvPpm: 800_000,
  liquidationLtvPpm: 900_000,
}));

export interface SeedResult {
  /**
   * Set only when the first staff account was created now; printed once and never stored in clear.
   * Its password is a one-time password (ADR 0020): it works until `expiresAt`, and only to set
   * the admin's own password and enrol an authenticator.
   */
  staff?: { username: string; password: string; expiresAt: Date };
  demoUser?: { username: string; password: string };
}

/**
 * Fills an empty database with the first staff account (role admin) and one demo user with a
 * welcome message and demo balances. Runs in one transaction and does nothing when staff already exist.
 */
export async function seedDemoData(
  db: Db,
  now: Date,
  staffOneTimePasswordTtlHours = DEFAULT_STAFF_ONE_TIME_PASSWORD_TTL_HOURS,
): Promise<SeedResult> {
  const demoPassword = newInitialPassword();
  const [staffPassword, demoHash] = await Promise.all([issueOneTimePassword(staffOneTimePasswordTtlHours, now), hashPassword(demoPassword)]);
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE staff IN EXCLUSIVE MODE');
    const existing = await tx.query('SELECT 1 FROM staff LIMIT 1');
    if (existing.length > 0) return {};
    const [staff] = await tx.query<{ id: bigint }>(
      `INSERT INTO staff (username, password_hash, roles, password_one_time, password_expires_at, created_at, updated_at)
       VALUES ('admin', $1, ARRAY['admin']::text[], true, $2, $3, $3) RETURNING id`,
      [staffPassword.passwordHash, staffPassword.expiresAt, now],
    );
    await appendAudit(tx, { staffId: null, action: 'seed.staff.created', targetType: 'staff', targetId: staff!.id.toString(), at: now });
    const [user] = await tx.query<{ id: bigint }>(
      `INSERT INTO users (username, password_hash, invite_code, is_demo, created_at)
       VALUES ('demo01', $1, $2, true, $3) ON CONFLICT DO NOTHING RETURNING id`,
      [demoHash, newInviteCode(), now],
    );
    const staffAccount = { username: 'admin', password: staffPassword.oneTimePassword, expiresAt: staffPassword.expiresAt };
    if (!user) return { staff: staffAccount };
    // Demo balances are ordinary journal entries from the treasury, labelled as demo money.
    for (const [asset, amountMinor] of DEMO_BALANCES) {
      const treasury = await ensurePlatformAccount(tx, 'treasury', asset, { allowNegative: true });
      const coin = await ensureUserAccount(tx, user.id, 'coin', asset);
      await postEntry(tx, {
        reason: 'demo.fund',
        referenceType: 'user',
        referenceId: user.id.toString(),
        memo: 'Demo balance from the platform treasury; not real money.',
        postings: transferPostings(treasury, coin, asset, amountMinor),
        at: now,
      });
    }
    // Two earn products (ADR 0035), as an approved staff proposal would write them, and their
    // yield put aside in the earn treasury: demo money from the platform treasury, labelled so.
    await insertEarnProduct(tx, { kind: 'lockup', name: 'Mining pool, 5 days', asset: 'USDT', ...DEMO_LOCKUP }, now);
    await insertEarnProduct(tx, { kind: 'financial', name: 'Flexible savings, 30 days', asset: 'USDT', ...DEMO_FINANCIAL }, now);
    await fundEarnTreasury(tx, 'USDT', 50_000_000_000n, now, 'Demo: the yield of the demo earn products, put aside from the platform treasury; not real money.');
    // Two loan products and money to lend (ADR 0036), the same way.
    for (const product of DEMO_LOANS) await insertLoanProduct(tx, product, now);
    await fundLendingTreasury(tx, 100_000_000_000n, now, 'Demo: money to lend for the demo loan products, from the platform treasury; not real money.');
    // The help centre, the course, the about page, announcements and banners (issue 20).
    await seedDemoContent(tx, now);
    await tx.query('INSERT INTO messages (user_id, title, body, created_at) VALUES ($1, $2, $3, $4)', [
      user.id,
      'Welcome to Keel',
      'This is a demo account. Every balance change you will see is a journal entry you can inspect.',
      now,
    ]);
    return { staff: staffAccount, demoUser: { username: 'demo01', password: demoPassword } };
  });
}
