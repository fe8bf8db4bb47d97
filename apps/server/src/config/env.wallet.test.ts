import { describe, expect, it } from 'vitest';
import { walletSettingsFrom } from '../use-cases/wallet/wallet-settings.ts';
import { ConfigError, loadConfig } from './env.ts';

// The wallet's settings (issue 5) stop start-up with one clear line when they are wrong, and what
// they say is what the use cases enforce.

const XPUB = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const XPRV = 'xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7';

describe('wallet configuration', () => {
  it('refuses an extended private key, a bad address in a list, a fee finer than its asset and a bad window', () => {
    expect(() => loadConfig({ DEPOSIT_XPUB_TRON: XPRV })).toThrow(/DEPOSIT_XPUB_TRON: must be an extended PUBLIC key/);
    expect(() => loadConfig({ DEPOSIT_ADDRESSES_TRON: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' })).toThrow(/DEPOSIT_ADDRESSES_TRON: .* is not a tron address \(checksum\)/);
    expect(() => loadConfig({ WITHDRAWAL_FEE_USDT_TRC20: '0.0000001' })).toThrow(ConfigError);
    expect(() => loadConfig({ WITHDRAWAL_FEE_USDT_TRC20: '0.0000001' })).toThrow('invalid configuration: WITHDRAWAL_FEE_USDT_TRC20: at most 6 decimals');
    expect(() => loadConfig({ WITHDRAWAL_HOURS_UTC: '25:00-26:00' })).toThrow(/WITHDRAWAL_HOURS_UTC/);
    expect(() => loadConfig({ WALLET_CHANNELS: 'BTC,DOGE' })).toThrow(/WALLET_CHANNELS/);
  });

  it('turns the settings into the enforced policy: fees in minor units, sources, on-chain review only with a gateway', () => {
    const config = loadConfig({
      DEPOSIT_XPUB_TRON: XPUB,
      DEPOSIT_ADDRESSES_ETHEREUM: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      WITHDRAWAL_FEE_BTC: '0.0005',
      WITHDRAWAL_HOURS_UTC: '08:00-20:00',
      WITHDRAWAL_ADDRESS_HOLD_HOURS: '48',
      WALLET_TWO_PERSON_ABOVE_USDT: '2500',
    });
    const settings = walletSettingsFrom(config, { chainGateway: true });
    expect(settings.channels.get('BTC')).toMatchObject({ withdrawFeeMinor: 50_000n, withdrawMinMinor: 100_000n, depositReview: 'staff' });
    expect(settings.channels.get('USDT-ERC20')).toMatchObject({ depositReview: 'chain', token: { decimals: 6 } });
    expect(settings.channels.get('ETH')?.token).toBeUndefined();
    expect(settings.addressSources).toEqual({
      tron: { kind: 'xpub', extendedPublicKey: XPUB },
      // The list is stored checksummed.
      ethereum: { kind: 'list', addresses: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'] },
    });
    expect(settings.policy).toEqual({ withdrawalsOpen: true, window: { fromMinute: 480, toMinute: 1200 }, dailyCountLimit: 10, addressHoldMs: 48 * 3_600_000 });
    expect(settings.twoPersonAboveUsdtMinor).toBe(2_500_000_000n);
    expect(walletSettingsFrom(config).channels.get('ETH')?.depositReview).toBe('staff');
  });

  it('reads the public origin and the chain a wallet-connect message must name (ADR 0047)', () => {
    expect(loadConfig({}).PUBLIC_ORIGIN).toBeUndefined();
    expect(loadConfig({}).WALLET_CONNECT_CHAIN_ID).toBe(1);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://Keel.example/' }).PUBLIC_ORIGIN).toBe('https://keel.example');
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://127.0.0.1:8080' }).PUBLIC_ORIGIN).toBe('http://127.0.0.1:8080');
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'https://keel.example/app' })).toThrow(/PUBLIC_ORIGIN: an origin only/);
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'ftp://keel.example' })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => loadConfig({ WALLET_CONNECT_CHAIN_ID: '0' })).toThrow(/WALLET_CONNECT_CHAIN_ID/);
  });
});
