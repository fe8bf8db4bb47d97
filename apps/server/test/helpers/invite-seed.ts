import { transferPostings } from '@keel/domain';
import type { Db } from '../../src/persistence/db.ts';
import { postEntriesTogether } from '../../src/persistence/ledger-bulk.store.ts';
import { type EntryInput, ensurePlatformAccount, ensureUserAccounts } from '../../src/persistence/ledger.store.ts';
import { recordInvitation } from '../../src/use-cases/invitations/invite-rewards.ts';

/**
 * Inviters and the people they invited, written straight to the database (the crash test needs
 * hundreds; registering each through the API would spend its time hashing passwords), each invitee
 * registered at `registeredAtMs` under the rule given, funded, and paying one swap fee of
 * `feeMinor` USDT at each of `feeTimesMs` — the fee leg of a swap (`swap` entry: the coin account
 * pays, the fee account receives), which is what the reward job reads.
 */
export async function seedInvitations(
  db: Db,
  options: { inviters: number; perInviter: number; registeredAtMs: number; feeTimesMs: readonly number[]; feeMinor: bigint; sharePercent: number; periodDays: number },
): Promise<{ inviterIds: bigint[]; inviteeIds: bigint[] }> {
  const inviterIds: bigint[] = [];
  const inviteeIds: bigint[] = [];
  const registeredAt = new Date(options.registeredAtMs);
  const insertUser = async (name: string, invitedBy: bigint | null) =>
    (
      await db.query<{ id: bigint }>(
        `INSERT INTO users (username, password_hash, invite_code, invited_by, created_at) VALUES ($1, 'not-a-hash', $2, $3, $4) RETURNING id`,
        [name, name.toUpperCase().slice(-16), invitedBy, registeredAt],
      )
    )[0]!.id;
  for (let i = 0; i < options.inviters; i += 1) {
    const inviterId = await insertUser(`seedinviter${i}`, null);
    inviterIds.push(inviterId);
    await db.transaction(async (tx) => {
      for (let j = 0; j < options.perInviter; j += 1) {
        const [row] = await tx.query<{ id: bigint }>(
          `INSERT INTO users (username, password_hash, invite_code, invited_by, created_at) VALUES ($1, 'not-a-hash', $2, $3, $4) RETURNING id`,
          [`seedinvitee${i}x${j}`, `I${i}X${j}`, inviterId, registeredAt],
        );
        await recordInvitation(tx, { INVITE_REWARD_SHARE_PERCENT: options.sharePercent, INVITE_REWARD_DAYS: options.periodDays }, row!.id, inviterId, registeredAt);
        inviteeIds.push(row!.id);
      }
    });
  }
  await db.transaction(async (tx) => {
    const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
    const fees = await ensurePlatformAccount(tx, 'fees', 'USDT');
    const coins = await ensureUserAccounts(tx, inviteeIds, 'coin', 'USDT');
    const entries: EntryInput[] = inviteeIds.map((id) => ({
      reason: 'demo.fund',
      postings: transferPostings(treasury, coins.get(id)!, 'USDT', options.feeMinor * BigInt(options.feeTimesMs.length)),
      at: registeredAt,
    }));
    for (const atMs of options.feeTimesMs) {
      for (const id of inviteeIds) entries.push({ reason: 'swap', memo: 'the fee leg of a swap', postings: transferPostings(coins.get(id)!, fees, 'USDT', options.feeMinor), at: new Date(atMs) });
    }
    await postEntriesTogether(tx, entries);
  });
  return { inviterIds, inviteeIds };
}
