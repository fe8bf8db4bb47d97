import { AppError, type WalletChannelId } from '@keel/contracts';
import { formatAmount, normaliseTxHash } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { type DepositRow, depositView } from '../../persistence/deposits.repository.ts';
import { depositAddressFor, requireChannel } from './deposit-address.ts';
import { isUniqueViolation, parseChannelAmount, valueInUsdt } from './wallet-support.ts';

/**
 * A user reports a deposit: channel, amount (at most the channel's published cap), transaction
 * hash and an optional screenshot. Nothing is credited here. Finance staff review it, or — where a chain gateway checks the channel — the
 * on-chain check (check-chain-deposits.ts) credits it after the confirmations. A transaction hash
 * that has a pending or approved request on the network already is refused, so it is credited
 * at most once. Through the API the answer commits with the request (ADR 0019).
 */
export async function createDeposit(
  deps: Deps,
  input: { userId: bigint; channel?: WalletChannelId; amount: string; txHash: string; proofUploadId?: string },
  idempotency?: IdempotentRequest<ReturnType<typeof depositView>>,
) {
  const channel = requireChannel(deps, input.channel);
  const amountMinor = parseChannelAmount(channel, input.amount);
  if (amountMinor > channel.depositMaxMinor) {
    throw new AppError('AMOUNT_OUT_OF_RANGE', { max: formatAmount(channel.depositMaxMinor, channel.scale), asset: channel.asset });
  }
  const txHash = normaliseTxHash(channel.network, input.txHash);
  if (txHash === null) {
    throw new AppError('PARAMETER_ERROR', { fields: [{ field: 'body.txHash', message: `not a ${channel.network} transaction hash` }] });
  }
  if (input.proofUploadId !== undefined) {
    const [upload] = await deps.db.query<{ id: bigint }>(`SELECT id FROM uploads WHERE id = $1 AND user_id = $2 AND purpose = 'deposit_proof'`, [
      BigInt(input.proofUploadId),
      input.userId,
    ]);
    // Someone else's upload, or a verification photo, is "not found": its existence is not told.
    if (!upload) throw new AppError('RECORD_NOT_FOUND', { field: 'proofUploadId' });
  }
  const [taken] = await deps.db.query(`SELECT 1 FROM deposits WHERE network = $1 AND tx_hash = $2 AND status <> 'rejected'`, [channel.network, txHash]);
  if (taken) throw new AppError('TX_HASH_ALREADY_USED');
  const { address } = await depositAddressFor(deps, input.userId, channel.network);
  // Without any recorded price the value is unknown: two approvals, the safe side.
  const valuation = valueInUsdt(deps, channel, amountMinor, false);
  const approvalsRequired = channel.depositReview === 'staff' && (!valuation || valuation.usdtValueMinor > deps.wallet.twoPersonAboveUsdtMinor) ? 2 : 1;
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx.query<DepositRow>(
        `INSERT INTO deposits (user_id, channel, asset, network, address, amount_minor, usdt_value_minor, tx_hash, proof_upload_id,
           review, approvals_required, confirmations_seen, confirmations_required, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
        [
          input.userId,
          channel.id,
          channel.asset,
          channel.network,
          address,
          amountMinor.toString(),
          (valuation?.usdtValueMinor ?? 0n).toString(),
          txHash,
          input.proofUploadId ?? null,
          channel.depositReview,
          approvalsRequired,
          channel.depositReview === 'chain' ? 0 : null,
          channel.depositReview === 'chain' ? channel.confirmations : null,
          deps.now(),
        ],
      );
      const view = depositView(row!);
      await idempotency?.answerInTransaction(tx, view);
      return view;
    });
  } catch (error) {
    // Two reports of one hash at the same moment: the unique index lets one through.
    if (isUniqueViolation(error, 'deposits_tx_hash_once')) throw new AppError('TX_HASH_ALREADY_USED');
    throw error;
  }
}
