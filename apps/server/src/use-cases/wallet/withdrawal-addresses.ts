import { AppError } from '@keel/contracts';
import { checkAddress, type WalletNetwork } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { boundAddressOf } from '../wallet-connect/wallet-connect.ts';
import { addWithinLimit, messageUser, removeOwnRow } from './wallet-support.ts';

/** A published bound on the address book (TIGER_STYLE: a limit on everything). */
export const MAX_WITHDRAWAL_ADDRESSES = 20;

interface AddressRow {
  id: bigint;
  network: WalletNetwork;
  address: string;
  label: string;
  created_at: Date;
  ownership_proven_at: Date | null;
}

function addressView(deps: Deps, row: AddressRow) {
  return {
    id: row.id.toString(),
    network: row.network,
    address: row.address,
    label: row.label,
    createdAt: row.created_at.toISOString(),
    usableFrom: new Date(row.created_at.getTime() + deps.wallet.policy.addressHoldMs).toISOString(),
    ownershipProven: row.ownership_proven_at !== null,
  };
}

export async function listWithdrawalAddresses(deps: Deps, userId: bigint) {
  const rows = await deps.db.query<AddressRow>(
    'SELECT id, network, address, label, created_at, ownership_proven_at FROM withdrawal_addresses WHERE user_id = $1 AND removed_at IS NULL ORDER BY id DESC',
    [userId],
  );
  return { items: rows.map((row) => addressView(deps, row)), holdHours: deps.config.WITHDRAWAL_ADDRESS_HOLD_HOURS };
}

/**
 * Adds an address to the book, checked for its network (Bitcoin base58check and bech32/bech32m,
 * Ethereum EIP-55, TRON base58check) and stored in its normal form. It can be used after the
 * published hold, and the user gets a system message: if someone else added it, they hear of it
 * while the hold still protects them. An Ethereum address that is the account's bound wallet
 * (proved by a signed message, ADR 0047) is marked ownership-proven; the hold applies all the
 * same: the proof says the user holds the address, not that this session is the user's.
 */
export async function addWithdrawalAddress(deps: Deps, userId: bigint, input: { network: WalletNetwork; address: string; label: string }) {
  const checked = checkAddress(input.network, input.address);
  if (!checked.ok) throw new AppError('WRONG_ADDRESS', { problem: checked.problem, network: input.network });
  const now = deps.now();
  const added = await addWithinLimit(
    deps.db,
    { userId, table: 'withdrawal_addresses', limit: MAX_WITHDRAWAL_ADDRESSES, uniqueIndex: 'withdrawal_addresses_once' },
    async (tx) => {
      const proven = input.network === 'ethereum' && (await boundAddressOf(tx, userId)) === checked.address;
      const [row] = await tx.query<AddressRow>(
        `INSERT INTO withdrawal_addresses (user_id, network, address, label, created_at, ownership_proven_at) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id, network, address, label, created_at, ownership_proven_at`,
        [userId, input.network, checked.address, input.label, now, proven ? now : null],
      );
      const view = addressView(deps, row!);
      await messageUser(
        tx,
        userId,
        { title: 'notify.address.added.title', body: 'notify.address.added.body' },
        { address: checked.address, network: input.network, usableFrom: `${view.usableFrom.replace('T', ' ').slice(0, 16)} UTC` },
        now,
      );
      return view;
    },
  );
  await publishToUser(deps, userId, { kind: 'message', unread: true });
  return added;
}

export function removeWithdrawalAddress(deps: Deps, userId: bigint, addressId: bigint) {
  return removeOwnRow(deps.db, { userId, table: 'withdrawal_addresses', id: addressId, at: deps.now() });
}
