import { describe, expect, it } from 'vitest';
import { normaliseTxHash } from './tx-hash.ts';

// The first bitcoin transfer (Satoshi to Hal Finney, block 170), and SHA-256 of the empty string
// as a 64-digit value for the networks whose explorers print hashes in the same shape.
const bitcoinTxId = 'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16';
const someHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('normaliseTxHash', () => {
  it('ethereum: requires 0x and 64 hex digits, and lower-cases them', () => {
    expect(normaliseTxHash('ethereum', `0x${someHash}`)).toBe(`0x${someHash}`);
    expect(normaliseTxHash('ethereum', `0x${someHash.toUpperCase()}`)).toBe(`0x${someHash}`);
    expect(normaliseTxHash('ethereum', someHash)).toBeNull();
    expect(normaliseTxHash('ethereum', `0X${someHash}`)).toBeNull();
    expect(normaliseTxHash('ethereum', `0x${someHash.slice(1)}`)).toBeNull();
    expect(normaliseTxHash('ethereum', `0x${someHash}0`)).toBeNull();
    expect(normaliseTxHash('ethereum', `0x${someHash.slice(1)}g`)).toBeNull();
  });

  it('bitcoin: 64 hex digits, lower-cased, and no 0x prefix', () => {
    expect(normaliseTxHash('bitcoin', bitcoinTxId)).toBe(bitcoinTxId);
    expect(normaliseTxHash('bitcoin', bitcoinTxId.toUpperCase())).toBe(bitcoinTxId);
    expect(normaliseTxHash('bitcoin', `0x${bitcoinTxId}`)).toBeNull();
    expect(normaliseTxHash('bitcoin', bitcoinTxId.slice(2))).toBeNull();
    expect(normaliseTxHash('bitcoin', `${bitcoinTxId}00`)).toBeNull();
    expect(normaliseTxHash('bitcoin', `${bitcoinTxId.slice(1)}z`)).toBeNull();
  });

  it('tron: 64 hex digits with an optional 0x that is dropped, lower-cased', () => {
    expect(normaliseTxHash('tron', someHash)).toBe(someHash);
    expect(normaliseTxHash('tron', `0x${someHash}`)).toBe(someHash);
    expect(normaliseTxHash('tron', `0x${someHash.toUpperCase()}`)).toBe(someHash);
    expect(normaliseTxHash('tron', `0x0x${someHash}`)).toBeNull();
    expect(normaliseTxHash('tron', someHash.slice(1))).toBeNull();
    expect(normaliseTxHash('tron', `0x${someHash.slice(2)}`)).toBeNull();
  });

  it('ignores whitespace around a pasted hash but not inside it', () => {
    expect(normaliseTxHash('bitcoin', ` ${bitcoinTxId}\n`)).toBe(bitcoinTxId);
    expect(normaliseTxHash('ethereum', `\t0x${someHash} `)).toBe(`0x${someHash}`);
    expect(normaliseTxHash('tron', ` 0x${someHash} `)).toBe(someHash);
    expect(normaliseTxHash('bitcoin', `${bitcoinTxId.slice(0, 10)} ${bitcoinTxId.slice(10)}`)).toBeNull();
  });

  it('refuses empty text and signs of other formats', () => {
    for (const network of ['bitcoin', 'ethereum', 'tron'] as const) {
      expect(normaliseTxHash(network, '')).toBeNull();
      expect(normaliseTxHash(network, '   ')).toBeNull();
      expect(normaliseTxHash(network, '0x')).toBeNull();
      expect(normaliseTxHash(network, `-${someHash}`)).toBeNull();
    }
  });
});
