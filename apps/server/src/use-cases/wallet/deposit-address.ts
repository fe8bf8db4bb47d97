import { AppError, type WalletChannelId } from '@keel/contracts';
import { deriveDepositAddress, type WalletNetwork } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { ChannelSetting } from './wallet-settings.ts';

export interface DepositAddress {
  network: WalletNetwork;
  address: string;
  demo: boolean;
}

/** The channel a request names, refused with "select a recharge channel" when it names none the operator offers. */
export function requireChannel(deps: Deps, channel: WalletChannelId | undefined): ChannelSetting {
  const setting = channel === undefined ? undefined : deps.wallet.channels.get(channel);
  if (!setting) throw new AppError('SELECT_RECHARGE_CHANNEL');
  return setting;
}

async function existingAddress(db: Queryable, userId: bigint, network: WalletNetwork): Promise<DepositAddress | undefined> {
  const [row] = await db.query<{ address: string; source: string }>('SELECT address, source FROM deposit_addresses WHERE user_id = $1 AND network = $2', [
    userId,
    network,
  ]);
  return row ? { network, address: row.address, demo: row.source === 'demo' } : undefined;
}

/**
 * The user's deposit address on a network: assigned on the first ask and the same ever after. The
 * next index comes from a per-network counter whose row lock serialises assignment; the user's
 * own row is locked first, so two first asks of one user get one address, not two.
 */
export async function depositAddressFor(deps: Deps, userId: bigint, network: WalletNetwork): Promise<DepositAddress> {
  const known = await existingAddress(deps.db, userId, network);
  if (known) return known;
  const source = deps.wallet.addressSources[network];
  if (!source) throw new AppError('DEPOSIT_ADDRESS_UNAVAILABLE', { network });
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    const raced = await existingAddress(tx, userId, network);
    if (raced) return raced;
    const [counter] = await tx.query<{ address_index: number }>(
      'UPDATE deposit_address_counters SET next_index = next_index + 1 WHERE network = $1 RETURNING next_index - 1 AS address_index',
      [network],
    );
    const index = counter!.address_index;
    let address: string;
    if (source.kind === 'list') {
      // Used up: the error rolls the counter back, and the operator adds addresses.
      if (index >= source.addresses.length) throw new AppError('DEPOSIT_ADDRESS_UNAVAILABLE', { network });
      address = source.addresses[index]!;
    } else {
      address = deriveDepositAddress(network, source.extendedPublicKey, index);
    }
    await tx.query('INSERT INTO deposit_addresses (user_id, network, address, source, address_index, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      userId,
      network,
      address,
      source.kind,
      index,
      deps.now(),
    ]);
    return { network, address, demo: source.kind === 'demo' };
  });
}
