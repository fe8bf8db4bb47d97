/** An asset the ledger knows, with the number of decimals its minor unit has. */
export interface AssetSpec {
  readonly code: string;
  readonly scale: number;
}

/** The assets of spec section 1; more come from configuration. */
export const defaultAssets: readonly AssetSpec[] = [
  { code: 'USDT', scale: 6 },
  { code: 'BTC', scale: 8 },
  { code: 'ETH', scale: 18 },
];

export function assetByCode(assets: readonly AssetSpec[], code: string): AssetSpec | undefined {
  return assets.find((asset) => asset.code === code);
}
