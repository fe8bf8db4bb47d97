import { LedgerError, transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { captureHold, placeHold, releaseHold } from '../../../src/persistence/ledger-holds.store.ts';
import { ensurePlatformAccount, ensureUserAccount, IdempotencyConflictError, postEntry } from '../../../src/persistence/ledger.store.ts';
import { AppError } from '@keel/contracts';
import type { Deps } from '../../../src/deps.ts';
import { ledgerBatcherFor } from '../../../src/persistence/ledger-batcher.ts';
import { createSwapQuote } from '../../../src/use-cases/swap/create-swap-quote.ts';
import { executeSwap } from '../../../src/use-cases/swap/execute-swap.ts';
import { storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { walletSettingsFrom } from '../../../src/use-cases/wallet/wallet-settings.ts';

// Seeded randomised operations against the real store, with the reconciliation check after every
// step. The seed is printed; replay a failure with LEDGER_SEED=<seed> (and LEDGER_STEPS=<n>).
const seed = Number(process.env.LEDGER_SEED ?? Math.floor(Math.random() * 2 ** 31));
const steps = Number(process.env.LEDGER_STEPS ?? 1000);

function rng(start: number) {
  let state = start >>> 0 || 1;
  return () => {
    // xorshift32: small, fast and the same on every machine.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

describe(`ledger under random operations (seed ${seed})`, () => {
  let t: TestDb;
  beforeAll(async () => {
    console.log(`ledger random test: LEDGER_SEED=${seed} LEDGER_STEPS=${steps}`);
    t = await createTestDb();
  });
  afterAll(() => t.dispose());

  it('keeps every invariant after every step', async () => {
    const random = rng(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const amount = (max: number) => BigInt(1 + Math.floor(random() * max));
    const at = new Date('2026-11-22T00:00:00Z');

    const treasury = await ensurePlatformAccount(t.db, 'treasury', 'USDT', { allowNegative: true });
    const accounts: bigint[] = [];
    const users: { id: bigint; kind: 'coin' | 'fiat' | 'defi' }[] = [];
    for (let i = 0; i < 6; i += 1) {
      const [user] = await t.db.query<{ id: bigint }>(
        `INSERT INTO users (username, password_hash, invite_code) VALUES ($1, 'x', $2) RETURNING id`,
        [`random${i}user`, `RAND${i}XYZ`],
      );
      const kind = pick(['coin', 'fiat', 'defi'] as const);
      users.push({ id: user!.id, kind });
      accounts.push(await ensureUserAccount(t.db, user!.id, kind, 'USDT'));
    }
    // Swaps go through the real use cases, priced from a tick that moves with the run. The price
    // is a toy one (around 90 USDT) so that the small random balances can swap both ways.
    let btcPrice = 90n;
    const deps = {
      db: t.db,
      config: testConfig(),
      now: () => at,
      logger: undefined as unknown as Deps['logger'],
      storage: storageNotUsedInThisTest,
      ledger: ledgerBatcherFor(t.db),
      wallet: walletSettingsFrom(testConfig()),
      chain: undefined,
      market: { latest: (symbol: string) => ({ tickId: 1n, symbol, price: `${btcPrice}.00000000`, atMs: at.getTime(), source: 'random-test' }) },
    } satisfies Deps;
    const openHolds: bigint[] = [];
    const counts = { transfer: 0, refused: 0, hold: 0, release: 0, capture: 0, swap: 0, duplicates: 0, conflicts: 0 };

    for (let step = 0; step < steps; step += 1) {
      const op = random();
      try {
        if (op < 0.15) {
          const to = pick(accounts);
          await t.db.transaction((tx) => postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, to, 'USDT', amount(5_000)), at }));
          counts.transfer += 1;
        } else if (op < 0.45) {
          const from = pick(accounts);
          const to = pick(accounts.filter((a) => a !== from));
          await t.db.transaction((tx) => postEntry(tx, { reason: 'test.transfer', postings: transferPostings(from, to, 'USDT', amount(3_000)), at }));
          counts.transfer += 1;
        } else if (op < 0.6) {
          const { holdId } = await t.db.transaction((tx) =>
            placeHold(tx, { accountId: pick(accounts), amountMinor: amount(2_000), referenceType: 'random', referenceId: `h${step}`, at }),
          );
          openHolds.push(holdId);
          counts.hold += 1;
        } else if (op < 0.7 && openHolds.length > 0) {
          const holdId = openHolds.splice(Math.floor(random() * openHolds.length), 1)[0]!;
          await t.db.transaction((tx) => releaseHold(tx, { holdId, at }));
          counts.release += 1;
        } else if (op < 0.8 && openHolds.length > 0) {
          const holdId = openHolds.splice(Math.floor(random() * openHolds.length), 1)[0]!;
          const [hold] = await t.db.query<{ amount_minor: string }>('SELECT amount_minor FROM ledger_holds WHERE id = $1', [holdId]);
          const held = BigInt(hold!.amount_minor);
          const capture = 1n + BigInt(Math.floor(random() * Number(held)));
          await t.db.transaction((tx) => captureHold(tx, { holdId, toAccountId: pick(accounts), amountMinor: capture, reason: 'random.capture', at }));
          counts.capture += 1;
        } else if (op < 0.9) {
          btcPrice = btcPrice + BigInt(Math.floor(random() * 3) - 1) || 1n;
          const { id: userId, kind } = pick(users);
          const buy = random() < 0.5;
          try {
            const quote = await createSwapQuote(deps, {
              userId,
              account: kind,
              fromAsset: buy ? 'USDT' : 'BTC',
              toAsset: buy ? 'BTC' : 'USDT',
              // Up to 0.003 USDT, or up to 2,000 satoshi: the size of the random balances.
              amount: buy ? `0.00${amount(3_000).toString().padStart(4, '0')}` : `0.0000${amount(2_000).toString().padStart(4, '0')}`,
            });
            await executeSwap(deps, { userId, quoteId: BigInt(quote.quoteId) });
            counts.swap += 1;
          } catch (error) {
            if (!(error instanceof AppError && ['INSUFFICIENT_BALANCE', 'WRONG_AMOUNT'].includes(error.key))) throw error;
            counts.refused += 1;
          }
        } else {
          // Concurrent duplicates of one idempotency key, sometimes with a conflicting twin.
          const from = pick(accounts);
          const to = pick(accounts.filter((a) => a !== from));
          const value = amount(500);
          const key = `dup-${step}`;
          const post = (v: bigint) =>
            t.db.transaction((tx) => postEntry(tx, { reason: 'test.transfer', idempotencyKey: key, postings: transferPostings(from, to, 'USDT', v), at }));
          const results = await Promise.allSettled([post(value), post(value), post(value), ...(random() < 0.3 ? [post(value + 1n)] : [])]);
          const posted = results.filter((r) => r.status === 'fulfilled' && !r.value.replayed);
          expect(posted.length).toBeLessThanOrEqual(1);
          for (const result of results) {
            if (result.status === 'rejected') {
              expect(result.reason instanceof LedgerError || result.reason instanceof IdempotencyConflictError).toBe(true);
              if (result.reason instanceof IdempotencyConflictError) counts.conflicts += 1;
            }
          }
          counts.duplicates += 1;
        }
      } catch (error) {
        if (!(error instanceof LedgerError)) throw error;
        counts.refused += 1;
      }
      const check = await checkLedger(t.db);
      expect(check.problems, `step ${step} (seed ${seed})`).toEqual([]);
    }
    console.log(`ledger random test (seed ${seed}): ${JSON.stringify(counts)}`);
    expect(counts.transfer + counts.hold).toBeGreaterThan(0);
  });
});
