import type { WalletChannelId } from '@keel/contracts';
import {
  AmountError,
  defaultAssets,
  parseAmount,
  parseWithdrawalWindow,
  type WalletNetwork,
  type WithdrawalPolicy,
  USDT_SCALE,
} from '@keel/domain';
import type { Config } from '../../config/env.ts';

/**
 * The wallet's configuration, read once from the environment: which channels exist, where
 * deposit addresses come from, the fees, minimums and the withdrawal rules. The same object is
 * enforced by the use cases and published by GET /home/wallet/overview, so what users read is
 * what applies.
 */

export type DepositAddressSource =
  | { kind: 'xpub'; extendedPublicKey: string }
  /** A demo deployment's key: generated once, its private half thrown away; funds sent there are lost. */
  | { kind: 'demo'; extendedPublicKey: string }
  | { kind: 'list'; addresses: readonly string[] };

export interface ChannelSetting {
  id: WalletChannelId;
  asset: 'USDT' | 'BTC' | 'ETH';
  network: WalletNetwork;
  scale: number;
  withdrawFeeMinor: bigint;
  withdrawMinMinor: bigint;
  /** The largest amount one deposit report may name (a published sanity cap). */
  depositMaxMinor: bigint;
  /** `chain` when a chain gateway checks this channel's deposits (ETH and USDT-ERC20 with ETHEREUM_RPC_URL). */
  depositReview: 'staff' | 'chain';
  confirmations: number;
  /** For a token channel checked on chain: the token contract and its on-chain decimals. */
  token?: { contract: string; decimals: number };
}

export interface WalletSettings {
  channels: ReadonlyMap<WalletChannelId, ChannelSetting>;
  addressSources: Partial<Record<WalletNetwork, DepositAddressSource>>;
  policy: WithdrawalPolicy;
  /** Above this USDT value (minor units), deposits and withdrawals need two staff approvals. */
  twoPersonAboveUsdtMinor: bigint;
  /** An on-chain deposit still not confirmed after this long is rejected. */
  chainGiveUpMs: number;
}

const channelShapes: Record<WalletChannelId, { asset: ChannelSetting['asset']; network: WalletNetwork }> = {
  'USDT-TRC20': { asset: 'USDT', network: 'tron' },
  'USDT-ERC20': { asset: 'USDT', network: 'ethereum' },
  BTC: { asset: 'BTC', network: 'bitcoin' },
  ETH: { asset: 'ETH', network: 'ethereum' },
};

const feeVariables = {
  'USDT-TRC20': 'WITHDRAWAL_FEE_USDT_TRC20',
  'USDT-ERC20': 'WITHDRAWAL_FEE_USDT_ERC20',
  BTC: 'WITHDRAWAL_FEE_BTC',
  ETH: 'WITHDRAWAL_FEE_ETH',
} as const satisfies Record<WalletChannelId, keyof Config>;

const minVariables = { USDT: 'WITHDRAWAL_MIN_USDT', BTC: 'WITHDRAWAL_MIN_BTC', ETH: 'WITHDRAWAL_MIN_ETH' } as const satisfies Record<
  ChannelSetting['asset'],
  keyof Config
>;

const depositMaxVariables = { USDT: 'DEPOSIT_MAX_USDT', BTC: 'DEPOSIT_MAX_BTC', ETH: 'DEPOSIT_MAX_ETH' } as const satisfies Record<
  ChannelSetting['asset'],
  keyof Config
>;

const scaleOf = (asset: string) => defaultAssets.find((each) => each.code === asset)!.scale;

/** Thrown for a configured amount finer than its asset allows; start-up stops with its message. */
export class WalletConfigError extends Error {}

function amountSetting(config: Config, variable: keyof Config, scale: number): bigint {
  try {
    return parseAmount(String(config[variable]), scale);
  } catch (error) {
    if (error instanceof AmountError) throw new WalletConfigError(`invalid configuration: ${variable}: at most ${scale} decimals`);
    throw error;
  }
}

function configuredSource(config: Config, network: WalletNetwork): DepositAddressSource | undefined {
  const upper = network.toUpperCase() as 'BITCOIN' | 'ETHEREUM' | 'TRON';
  const xpub = config[`DEPOSIT_XPUB_${upper}`];
  if (xpub) return { kind: 'xpub', extendedPublicKey: xpub };
  const list = config[`DEPOSIT_ADDRESSES_${upper}`];
  if (list) return { kind: 'list', addresses: list };
  return undefined;
}

/** Networks of the offered channels that the configuration gives no deposit address source. */
export function networksWithoutDepositSource(config: Config): WalletNetwork[] {
  const networks = new Set(config.WALLET_CHANNELS.map((id) => channelShapes[id].network));
  return [...networks].filter((network) => configuredSource(config, network) === undefined);
}

export function walletSettingsFrom(
  config: Config,
  options: { chainGateway: boolean; demoKeys?: Partial<Record<WalletNetwork, string>> } = { chainGateway: false },
): WalletSettings {
  const channels = new Map<WalletChannelId, ChannelSetting>();
  for (const id of config.WALLET_CHANNELS) {
    const { asset, network } = channelShapes[id];
    const scale = scaleOf(asset);
    const onChain = options.chainGateway && network === 'ethereum';
    channels.set(id, {
      id,
      asset,
      network,
      scale,
      withdrawFeeMinor: amountSetting(config, feeVariables[id], scale),
      withdrawMinMinor: amountSetting(config, minVariables[asset], scale),
      depositMaxMinor: amountSetting(config, depositMaxVariables[asset], scale),
      depositReview: onChain ? 'chain' : 'staff',
      confirmations: onChain ? config.ETHEREUM_CONFIRMATIONS : 0,
      ...(onChain && id === 'USDT-ERC20' ? { token: { contract: config.ETHEREUM_USDT_CONTRACT, decimals: config.ETHEREUM_USDT_DECIMALS } } : {}),
    });
  }
  const addressSources: WalletSettings['addressSources'] = {};
  for (const network of ['bitcoin', 'ethereum', 'tron'] as const) {
    const configured = configuredSource(config, network);
    const demo = options.demoKeys?.[network];
    if (configured) addressSources[network] = configured;
    else if (demo) addressSources[network] = { kind: 'demo', extendedPublicKey: demo };
  }
  return {
    channels,
    addressSources,
    policy: {
      withdrawalsOpen: config.WITHDRAWALS_OPEN,
      window: config.WITHDRAWAL_HOURS_UTC ? parseWithdrawalWindow(config.WITHDRAWAL_HOURS_UTC) : null,
      dailyCountLimit: config.WITHDRAWAL_DAILY_COUNT,
      addressHoldMs: config.WITHDRAWAL_ADDRESS_HOLD_HOURS * 3_600_000,
    },
    twoPersonAboveUsdtMinor: BigInt(config.WALLET_TWO_PERSON_ABOVE_USDT) * 10n ** BigInt(USDT_SCALE),
    chainGiveUpMs: config.CHAIN_DEPOSIT_GIVE_UP_HOURS * 3_600_000,
  };
}

/** The channel a request names, if the operator offers it. */
export function channelSetting(settings: WalletSettings, id: WalletChannelId): ChannelSetting | undefined {
  return settings.channels.get(id);
}
