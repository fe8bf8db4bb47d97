import { estimatedIncomeMinor, maturityTimeMs, payoutTimeMs } from '@keel/domain';
import type { Db } from '../../src/persistence/db.ts';
import { postEntriesTogether } from '../../src/persistence/ledger-bulk.store.ts';
import { type EntryInput, ensureUserAccounts } from '../../src/persistence/ledger.store.ts';
import { subscriptionNumber } from '../../src/use-cases/earn/subscribe.ts';

/**
 * Many active subscriptions at once, written as a subscription writes each (issue 17's crash test
 * and `npm run bench:interest`): per subscription one `earn.subscribe` entry from the user's coin
 * account into the DeFi account's frozen part, its hold and its row, the product's active
 * principal and the asset's obligations raised — in batches of `batchSize`, so that 100,000 take
 * seconds rather than the minutes the API's payment-password checks would. The users' coin
 * accounts must hold the principal; the product's quota and the earn treasury must allow it (the
 * ledger check says so afterwards). `subscribedAtMs` may lie in the past: that is downtime.
 */
export async function seedSubscriptions(
  db: Db,
  input: { productId: bigint; userIds: readonly bigint[]; perUser: number; principalMinor: bigint; subscribedAtMs: number; batchSize?: number },
): Promise<bigint[]> {
  const [product] = await db.query<{ asset: string; cycle_days: number; daily_rate_ppm: number; penalty_rate_ppm: number; payout_minute_utc: number; early_redemption: boolean; terms_version: number }>(
    'SELECT asset, cycle_days, daily_rate_ppm, penalty_rate_ppm, payout_minute_utc, early_redemption, terms_version FROM earn_products WHERE id = $1',
    [input.productId],
  );
  if (!product) throw new Error(`no earn product ${input.productId}`);
  const work = input.userIds.flatMap((userId) => Array.from({ length: input.perUser }, () => userId));
  const batchSize = input.batchSize ?? 2_000;
  const promisedMinor = estimatedIncomeMinor(input.principalMinor, product.daily_rate_ppm, product.cycle_days);
  const ids: bigint[] = [];
  const at = new Date(input.subscribedAtMs);
  for (let start = 0; start < work.length; start += batchSize) {
    const users = work.slice(start, start + batchSize);
    await db.transaction(async (tx) => {
      await tx.query('SELECT id FROM earn_products WHERE id = $1 FOR UPDATE', [input.productId]);
      await tx.query('INSERT INTO earn_obligations (asset) VALUES ($1) ON CONFLICT DO NOTHING', [product.asset]);
      await tx.query('SELECT asset FROM earn_obligations WHERE asset = $1 FOR UPDATE', [product.asset]);
      const coins = await ensureUserAccounts(tx, users, 'coin', product.asset);
      const defis = await ensureUserAccounts(tx, users, 'defi', product.asset);
      const accounts = new Map(users.map((userId) => [userId, { coin: coins.get(userId)!, defi: defis.get(userId)! }]));
      const newIds = (
        await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('earn_subscriptions', 'id')) AS id FROM generate_series(1, $1)`, [users.length])
      ).map((row) => row.id);
      const entries: EntryInput[] = users.map((userId, index) => ({
        reason: 'earn.subscribe',
        referenceType: 'earn_subscription',
        referenceId: newIds[index]!.toString(),
        idempotencyKey: `earn.subscribe:${userId}:seed-${newIds[index]}`,
        postings: [
          { accountId: accounts.get(userId)!.coin, asset: product.asset, bucket: 'available', amountMinor: -input.principalMinor },
          { accountId: accounts.get(userId)!.defi, asset: product.asset, bucket: 'frozen', amountMinor: input.principalMinor },
        ],
        at,
      }));
      const posted = await postEntriesTogether(tx, entries);
      const holds = await tx.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         SELECT c.account_id, $1, 'earn_subscription', c.reference_id, c.entry_id, $2
         FROM unnest($3::bigint[], $4::text[], $5::bigint[]) WITH ORDINALITY AS c(account_id, reference_id, entry_id, n) ORDER BY c.n RETURNING id`,
        [
          input.principalMinor.toString(),
          at,
          users.map((userId) => accounts.get(userId)!.defi.toString()),
          newIds.map(String),
          posted.map((entry) => entry.entryId.toString()),
        ],
      );
      await tx.query(
        `INSERT INTO earn_subscriptions (id, subscription_no, user_id, product_id, asset, principal_minor, terms_version, cycle_days, daily_rate_ppm,
           penalty_rate_ppm, payout_minute_utc, early_redemption, subscribed_at_ms, matures_at_ms, next_payout_at_ms, account_id, hold_id, subscribe_entry_id)
         OVERRIDING SYSTEM VALUE
         SELECT c.id, c.no, c.user_id, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, c.account_id, c.hold_id, c.entry_id
         FROM unnest($13::bigint[], $14::text[], $15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[]) AS c(id, no, user_id, account_id, hold_id, entry_id)`,
        [
          input.productId,
          product.asset,
          input.principalMinor.toString(),
          product.terms_version,
          product.cycle_days,
          product.daily_rate_ppm,
          product.penalty_rate_ppm,
          product.payout_minute_utc,
          product.early_redemption,
          input.subscribedAtMs,
          maturityTimeMs(input.subscribedAtMs, product.payout_minute_utc, product.cycle_days),
          payoutTimeMs(input.subscribedAtMs, product.payout_minute_utc, 1),
          newIds.map(String),
          newIds.map((id) => subscriptionNumber(id, input.subscribedAtMs)),
          users.map(String),
          users.map((userId) => accounts.get(userId)!.defi.toString()),
          holds.map((hold) => hold.id.toString()),
          posted.map((entry) => entry.entryId.toString()),
        ],
      );
      const principalTotal = input.principalMinor * BigInt(users.length);
      await tx.query('UPDATE earn_products SET active_minor = active_minor + $2 WHERE id = $1', [input.productId, principalTotal.toString()]);
      await tx.query('UPDATE earn_obligations SET owed_minor = owed_minor + $2 WHERE asset = $1', [product.asset, (promisedMinor * BigInt(users.length)).toString()]);
      ids.push(...newIds);
    });
  }
  return ids;
}
