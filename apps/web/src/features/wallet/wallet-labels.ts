import type { depositStatuses, WalletChannelId, withdrawalStatuses } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

export type WalletNetwork = 'bitcoin' | 'ethereum' | 'tron';
export type DepositStatus = (typeof depositStatuses)[number];
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

/** A channel is one asset on one network; its name says both. */
export const channelKeys: Record<WalletChannelId, MessageKey> = {
  'USDT-TRC20': 'web.wallet.channel.USDT-TRC20',
  'USDT-ERC20': 'web.wallet.channel.USDT-ERC20',
  BTC: 'web.wallet.channel.BTC',
  ETH: 'web.wallet.channel.ETH',
};

export const networkKeys: Record<WalletNetwork, MessageKey> = {
  bitcoin: 'web.wallet.network.bitcoin',
  ethereum: 'web.wallet.network.ethereum',
  tron: 'web.wallet.network.tron',
};

/** The networks of the address book, with what each carries (one Ethereum address takes ETH and ERC20 tokens). */
export const addressNetworkKeys: Record<WalletNetwork, MessageKey> = {
  bitcoin: 'web.address.network.bitcoin',
  ethereum: 'web.address.network.ethereum',
  tron: 'web.address.network.tron',
};

export const walletNetworkList: readonly WalletNetwork[] = ['bitcoin', 'ethereum', 'tron'];

export const depositStatusKeys: Record<DepositStatus, MessageKey> = {
  pending: 'web.deposit.status.pending',
  approved: 'web.deposit.status.approved',
  rejected: 'web.deposit.status.rejected',
};

export const withdrawalStatusKeys: Record<WithdrawalStatus, MessageKey> = {
  pending: 'web.withdraw.status.pending',
  approved: 'web.withdraw.status.approved',
  completed: 'web.withdraw.status.completed',
  rejected: 'web.withdraw.status.rejected',
  failed: 'web.withdraw.status.failed',
  cancelled: 'web.withdraw.status.cancelled',
};

/** The colour family of a status badge. */
export function statusTone(status: DepositStatus | WithdrawalStatus): 'pending' | 'good' | 'bad' | 'ended' {
  if (status === 'pending') return 'pending';
  if (status === 'approved' || status === 'completed') return 'good';
  if (status === 'cancelled') return 'ended';
  return 'bad';
}

/** The network each channel runs on (the same table the server publishes in the overview). */
export const channelNetworks: Record<WalletChannelId, WalletNetwork> = {
  'USDT-TRC20': 'tron',
  'USDT-ERC20': 'ethereum',
  BTC: 'bitcoin',
  ETH: 'ethereum',
};
