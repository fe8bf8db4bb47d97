import type { LocaleCode } from '@keel/contracts';
import { depositTransition, formatAmount } from '@keel/domain';
import { type MessageKey, translate } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import type { ChainAsset, ChainGateway, TransferObservation } from '../../integrations/chain/chain-gateway.ts';
import { type DepositRow, lockDeposit } from '../../persistence/deposits.repository.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { creditDeposit, tellUserOfDeposit } from './review-deposit.ts';
import type { ChannelSetting } from './wallet-settings.ts';

/** Deposits looked at per pass: a bound, so one pass stays short; the oldest-checked go first. */
const BATCH = 50;

type Verdict =
  | { kind: 'wait'; confirmations: number }
  | { kind: 'confirm'; confirmations: number }
  | { kind: 'refuse'; reason: { key: MessageKey; vars: Record<string, string> } };

/** On-chain base units in the ledger's scale, or null when they are finer than the ledger keeps. */
export function baseUnitsToMinor(baseUnits: bigint, chainDecimals: number, ledgerScale: number): bigint | null {
  if (chainDecimals <= ledgerScale) return baseUnits * 10n ** BigInt(ledgerScale - chainDecimals);
  const divisor = 10n ** BigInt(chainDecimals - ledgerScale);
  return baseUnits % divisor === 0n ? baseUnits / divisor : null;
}

/**
 * What an observation means for a reported deposit. The amount must be exactly what the user
 * reported (the chain decides, not the report, so a mismatch is refused with both amounts named
 * and can be reported again correctly).
 */
export function judgeObservation(
  deposit: Pick<DepositRow, 'amount_minor' | 'asset' | 'created_at'>,
  channel: ChannelSetting,
  observation: TransferObservation,
  nowMs: number,
  giveUpMs: number,
): Verdict {
  if (observation.kind === 'reverted') return { kind: 'refuse', reason: { key: 'notify.deposit.reason.reverted', vars: {} } };
  if (observation.kind !== 'mined') {
    if (nowMs - deposit.created_at.getTime() > giveUpMs) {
      return { kind: 'refuse', reason: { key: 'notify.deposit.reason.notFound', vars: { hours: String(Math.round(giveUpMs / 3_600_000)) } } };
    }
    return { kind: 'wait', confirmations: 0 };
  }
  const chainDecimals = channel.token ? channel.token.decimals : 18;
  const onChainMinor = baseUnitsToMinor(observation.amountToAddressBaseUnits, chainDecimals, channel.scale);
  const reportedMinor = toMinor(deposit.amount_minor);
  if (onChainMinor !== reportedMinor) {
    const onChain = onChainMinor === null ? `${observation.amountToAddressBaseUnits} × 10^-${chainDecimals}` : formatAmount(onChainMinor, channel.scale);
    return {
      kind: 'refuse',
      reason: {
        key: 'notify.deposit.reason.amountMismatch',
        vars: { onChain, reported: formatAmount(reportedMinor, channel.scale), asset: deposit.asset },
      },
    };
  }
  if (observation.confirmations < channel.confirmations) {
    if (nowMs - deposit.created_at.getTime() > giveUpMs) {
      return { kind: 'refuse', reason: { key: 'notify.deposit.reason.notFound', vars: { hours: String(Math.round(giveUpMs / 3_600_000)) } } };
    }
    return { kind: 'wait', confirmations: observation.confirmations };
  }
  return { kind: 'confirm', confirmations: observation.confirmations };
}

function chainAssetOf(channel: ChannelSetting): ChainAsset {
  return channel.token ? { kind: 'erc20', contract: channel.token.contract } : { kind: 'native' };
}

/**
 * One pass of the on-chain deposit check (where a chain gateway is configured): observe each
 * pending chain-reviewed deposit on chain — outside any transaction, since a node may be slow —
 * then apply the verdict in a transaction that locks the deposit and re-checks that it is still
 * pending. The credit's journal key is the deposit's id, so however many nodes run this, a deposit
 * is credited once. A node that cannot be reached leaves the deposit for the next pass.
 */
export async function checkChainDeposits(deps: Deps, chain: ChainGateway): Promise<{ looked: number; credited: number; refused: number }> {
  const rows = await deps.db.query<DepositRow>(
    `SELECT * FROM deposits WHERE review = 'chain' AND status = 'pending' ORDER BY chain_checked_at NULLS FIRST, id LIMIT $1`,
    [BATCH],
  );
  const result = { looked: rows.length, credited: 0, refused: 0 };
  for (const row of rows) {
    const channel = deps.wallet.channels.get(row.channel);
    if (channel?.depositReview !== 'chain') continue;
    let observation: TransferObservation;
    try {
      observation = await chain.observeTransfer({ txHash: row.tx_hash, toAddress: row.address, asset: chainAssetOf(channel) });
    } catch (error) {
      deps.logger.warn({ err: error, depositId: row.id.toString() }, 'chain deposit check: node unreachable, will retry');
      continue;
    }
    const now = deps.now();
    const verdict = judgeObservation(row, channel, observation, now.getTime(), deps.wallet.chainGiveUpMs);
    let told: bigint | null = null;
    await deps.db.transaction(async (tx) => {
      const deposit = await lockDeposit(tx, row.id);
      if (deposit?.status !== 'pending') return;
      if (verdict.kind === 'wait') {
        await tx.query('UPDATE deposits SET confirmations_seen = $2, chain_checked_at = $3 WHERE id = $1', [deposit.id, verdict.confirmations, now]);
        return;
      }
      const outcome = depositTransition(
        { status: deposit.status, approvalsRequired: deposit.approvals_required, firstApprovedBy: deposit.first_approved_by },
        { kind: verdict.kind === 'confirm' ? 'chain_confirmed' : 'chain_refused' },
      );
      if (!outcome.ok) return;
      const entryId = outcome.effect === 'credit' ? await creditDeposit(tx, deposit, now) : null;
      const [user] = await tx.query<{ language: LocaleCode }>('SELECT language FROM users WHERE id = $1', [deposit.user_id]);
      // The reason is written in the user's language: they read it on the deposit record.
      const reason = verdict.kind === 'refuse' ? translate(user?.language ?? 'en', verdict.reason.key, verdict.reason.vars) : null;
      await tx.query(
        `UPDATE deposits SET status = $2, decided_at = $3, reject_reason = $4, entry_id = $5, chain_checked_at = $3,
           confirmations_seen = COALESCE($6, confirmations_seen) WHERE id = $1`,
        [deposit.id, outcome.status, now, reason, entryId, verdict.kind === 'confirm' ? verdict.confirmations : null],
      );
      await tellUserOfDeposit(tx, deposit, outcome.status === 'approved', reason, now);
      if (outcome.status === 'approved') result.credited += 1;
      else result.refused += 1;
      told = deposit.user_id;
    });
    if (told !== null) await publishToUser(deps, told, { kind: 'message', unread: true });
  }
  return result;
}

/** Runs the check every `intervalMs` until stopped; a failing pass is logged and the next one runs. */
export function startChainDepositWatch(deps: Deps, chain: ChainGateway, intervalMs: number): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      await checkChainDeposits(deps, chain);
    } catch (error) {
      deps.logger.error({ err: error }, 'chain deposit check failed');
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), intervalMs);
  };
  running = pass();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
