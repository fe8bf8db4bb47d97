import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { bech32, createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { checkAddress } from './addresses.ts';
import { checkExtendedPublicKey, deriveDepositAddress } from './derive.ts';
import { walletNetworks } from './networks.ts';

const base58check = createBase58check(sha256);

// BIP32 test vector 1.
const bip32Vector1Root = HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'));
const bip32Vector1Xprv =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
const bip32Vector1XpubOfHardened0 =
  'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';

/**
 * The BIP39 seed of a mnemonic with no passphrase: PBKDF2-HMAC-SHA512, 2048 rounds, salt
 * "mnemonic". The word list is needed only to make or check a mnemonic, not to turn a known
 * one into its seed, so this stands in for a BIP39 library in the tests.
 */
function bip39Seed(mnemonic: string): Uint8Array {
  return pbkdf2(sha512, mnemonic.normalize('NFKD'), 'mnemonic', { c: 2048, dkLen: 64 });
}
const abandonAboutRoot = HDKey.fromMasterSeed(
  bip39Seed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
);

/** An Ethereum address computed from a private key, the other way round from the code. */
function ethereumAddressOfPrivateKey(privateKey: Uint8Array): string {
  const uncompressed = secp256k1.getPublicKey(privateKey, false);
  return `0x${bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12))}`;
}

function privateKeyAt(root: HDKey, path: string): Uint8Array {
  const privateKey = root.derive(path).privateKey;
  if (privateKey === null) throw new Error(`no private key at ${path}`);
  return privateKey;
}

describe('checkExtendedPublicKey', () => {
  it('accepts a mainnet xpub', () => {
    expect(bip32Vector1Root.derive("m/0'").publicExtendedKey).toBe(bip32Vector1XpubOfHardened0);
    expect(checkExtendedPublicKey(bip32Vector1XpubOfHardened0)).toBe(true);
    expect(checkExtendedPublicKey(bip32Vector1Root.publicExtendedKey)).toBe(true);
  });

  it('refuses an extended private key, although it parses', () => {
    expect(bip32Vector1Root.privateExtendedKey).toBe(bip32Vector1Xprv);
    expect(() => HDKey.fromExtendedKey(bip32Vector1Xprv)).not.toThrow();
    expect(checkExtendedPublicKey(bip32Vector1Xprv)).toBe(false);
    expect(checkExtendedPublicKey(bip32Vector1Root.derive("m/0'").privateExtendedKey)).toBe(false);
  });

  it('refuses garbage, a changed character, whitespace, and other version bytes', () => {
    expect(checkExtendedPublicKey('')).toBe(false);
    expect(checkExtendedPublicKey('xpub')).toBe(false);
    expect(checkExtendedPublicKey(`${bip32Vector1XpubOfHardened0.slice(0, -1)}x`)).toBe(false);
    expect(checkExtendedPublicKey(` ${bip32Vector1XpubOfHardened0}`)).toBe(false);
    // The BIP84 zpub of the "abandon … about" account: the same key under SLIP-132 version bytes.
    expect(
      checkExtendedPublicKey(
        'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
      ),
    ).toBe(false);
    // BIP32 test vector 1's root under testnet version bytes (tpub…).
    const tpubText = HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'), {
      private: 0x04358394,
      public: 0x043587cf,
    }).publicExtendedKey;
    expect(tpubText.startsWith('tpub')).toBe(true);
    expect(checkExtendedPublicKey(tpubText)).toBe(false);
  });
});

describe('deriveDepositAddress: known vectors', () => {
  // The BIP84 account zpub re-encoded with xpub version bytes (checked below against the zpub).
  const bip84AccountXpub =
    'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V';

  it('derives the BIP84 receiving addresses of the "abandon … about" account', () => {
    expect(abandonAboutRoot.derive("m/84'/0'/0'").publicExtendedKey).toBe(bip84AccountXpub);
    // The BIP lists the account as a zpub; it is the same key with other version bytes.
    const zpub = base58check.decode(
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    );
    expect(base58check.encode(Uint8Array.of(0x04, 0x88, 0xb2, 0x1e, ...zpub.subarray(4)))).toBe(bip84AccountXpub);
    expect(deriveDepositAddress('bitcoin', bip84AccountXpub, 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(deriveDepositAddress('bitcoin', bip84AccountXpub, 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  it('derives the well-known first Ethereum address of the "abandon … about" wallet (m/44\'/60\'/0\'/0/0)', () => {
    const accountXpub = abandonAboutRoot.derive("m/44'/60'/0'").publicExtendedKey;
    expect(deriveDepositAddress('ethereum', accountXpub, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  it('derives the first TRON address of the "abandon … about" wallet (m/44\'/195\'/0\'/0/0)', () => {
    const accountXpub = abandonAboutRoot.derive("m/44'/195'/0'").publicExtendedKey;
    expect(deriveDepositAddress('tron', accountXpub, 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });
});

describe('deriveDepositAddress: public derivation matches the private keys the operator holds', () => {
  const accountXpub = bip32Vector1XpubOfHardened0;
  const indexes = [0, 1, 7, 1000, 2 ** 31 - 1];

  it('bitcoin: P2WPKH of the compressed public key at m/0\'/0/index', () => {
    for (const index of indexes) {
      const publicKey = secp256k1.getPublicKey(privateKeyAt(bip32Vector1Root, `m/0'/0/${index}`), true);
      const expected = bech32.encode('bc', [0, ...bech32.toWords(ripemd160(sha256(publicKey)))]);
      expect(deriveDepositAddress('bitcoin', accountXpub, index), `index ${index}`).toBe(expected);
    }
  });

  it('ethereum: keccak-256 of the uncompressed public key at m/0\'/0/index, checksummed', () => {
    for (const index of indexes) {
      const expected = ethereumAddressOfPrivateKey(privateKeyAt(bip32Vector1Root, `m/0'/0/${index}`));
      const derived = deriveDepositAddress('ethereum', accountXpub, index);
      expect(derived.toLowerCase(), `index ${index}`).toBe(expected);
      expect(checkAddress('ethereum', derived)).toEqual({ ok: true, address: derived });
      // The checksum case is present, not an all-lower or all-upper form.
      expect(derived.slice(2)).not.toBe(derived.slice(2).toLowerCase());
    }
  });

  it('tron: the Ethereum account hash under the 0x41 prefix', () => {
    for (const index of indexes) {
      const expected = ethereumAddressOfPrivateKey(privateKeyAt(bip32Vector1Root, `m/0'/0/${index}`));
      const payload = base58check.decode(deriveDepositAddress('tron', accountXpub, index));
      expect(payload[0]).toBe(0x41);
      expect(`0x${bytesToHex(payload.subarray(1))}`, `index ${index}`).toBe(expected);
    }
  });

  it('uses the external chain 0, not the account key itself or the change chain 1', () => {
    const onChange = secp256k1.getPublicKey(privateKeyAt(bip32Vector1Root, "m/0'/1/0"), false);
    const derived = deriveDepositAddress('ethereum', accountXpub, 0).toLowerCase();
    expect(derived).not.toBe(`0x${bytesToHex(keccak_256(onChange.subarray(1)).subarray(12))}`);
    expect(derived).not.toBe(ethereumAddressOfPrivateKey(privateKeyAt(bip32Vector1Root, "m/0'/0")));
  });
});

describe('deriveDepositAddress: properties', () => {
  const accountXpub = bip32Vector1XpubOfHardened0;

  it('gives addresses that checkAddress accepts for their own network, unchanged', () => {
    for (const network of walletNetworks) {
      for (let index = 0; index < 20; index += 1) {
        const address = deriveDepositAddress(network, accountXpub, index);
        expect(checkAddress(network, address), `${network} ${index}`).toEqual({ ok: true, address });
      }
    }
  });

  it('gives a different address for every index', () => {
    for (const network of walletNetworks) {
      const addresses = new Set<string>();
      for (let index = 0; index < 50; index += 1) addresses.add(deriveDepositAddress(network, accountXpub, index));
      expect(addresses.size, network).toBe(50);
    }
  });

  it('gives different addresses for different account keys', () => {
    const otherXpub = bip32Vector1Root.derive("m/1'").publicExtendedKey;
    for (const network of walletNetworks) {
      expect(deriveDepositAddress(network, otherXpub, 0)).not.toBe(deriveDepositAddress(network, accountXpub, 0));
    }
  });

  it('refuses an extended private key without echoing it', () => {
    for (const network of walletNetworks) {
      expect(() => deriveDepositAddress(network, bip32Vector1Xprv, 0)).toThrow(TypeError);
      try {
        deriveDepositAddress(network, bip32Vector1Xprv, 0);
      } catch (error) {
        expect(String(error)).not.toContain(bip32Vector1Xprv.slice(4, 20));
      }
    }
    expect(() => deriveDepositAddress('bitcoin', 'not a key', 0)).toThrow(TypeError);
  });

  it('refuses an index outside [0, 2^31) or not an integer', () => {
    for (const index of [-1, 2 ** 31, 2 ** 32, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => deriveDepositAddress('bitcoin', accountXpub, index), String(index)).toThrow(RangeError);
    }
    expect(() => deriveDepositAddress('bitcoin', accountXpub, 2 ** 31 - 1)).not.toThrow();
  });
});
