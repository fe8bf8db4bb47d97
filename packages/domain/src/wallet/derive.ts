/**
 * Deposit addresses come from an operator's extended PUBLIC key (BIP32): the server can hand
 * every user a fresh address without ever holding a key that can spend, so a breach of the
 * server leaks which addresses are ours, never the coins. The operator derives the matching
 * private keys offline along the same path.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { bech32, createBase58check } from '@scure/base';
import { ethereumChecksumAddress } from './addresses.ts';
import type { WalletNetwork } from './networks.ts';

/** BIP44's external (receiving) chain; chain 1 is for change, which deposits never use. */
const EXTERNAL_CHAIN = 0;
/** Indexes at or above 2^31 are hardened, and hardened children cannot come from a public key. */
const DEPOSIT_INDEX_LIMIT = 2 ** 31;
const BITCOIN_MAINNET_HRP = 'bc';
const SEGWIT_V0 = 0;
const TRON_ADDRESS_VERSION = 0x41;
/** An Ethereum (and TRON) account is the last 20 bytes of the key's keccak-256 hash. */
const ACCOUNT_HASH_BYTES = 20;

const base58check = createBase58check(sha256);

/**
 * True only for an extended public key with the standard mainnet version bytes (xpub…). An
 * extended private key is refused even though it parses: configuring one would put a spending
 * key on the server, which is the thing this design exists to avoid.
 */
export function checkExtendedPublicKey(text: string): boolean {
  return parsePublicExtendedKey(text) !== null;
}

/**
 * The deposit address number `index` of an operator's account key: child 0/index of the
 * extended public key (external chain, non-hardened), encoded for `network`. Bitcoin gets a
 * native segwit P2WPKH address (bc1q…), Ethereum an EIP-55 address, TRON the same account hash
 * as Ethereum under TRON's 0x41 prefix.
 */
export function deriveDepositAddress(network: WalletNetwork, extendedPublicKey: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= DEPOSIT_INDEX_LIMIT) {
    throw new RangeError(`deposit index ${index} is not an integer in [0, 2^31)`);
  }
  const accountKey = parsePublicExtendedKey(extendedPublicKey);
  // The key text is left out of the message: if an xprv was passed by mistake, the error must
  // not carry it into a log.
  if (accountKey === null) throw new TypeError('not an extended public key (xpub)');
  const publicKey = accountKey.deriveChild(EXTERNAL_CHAIN).deriveChild(index).publicKey;
  if (publicKey === null) throw new Error('derived key has no public key');
  switch (network) {
    case 'bitcoin':
      return bitcoinP2wpkhAddress(publicKey);
    case 'ethereum':
      return ethereumChecksumAddress(bytesToHex(accountHash(publicKey)));
    case 'tron':
      return base58check.encode(Uint8Array.of(TRON_ADDRESS_VERSION, ...accountHash(publicKey)));
  }
}

function parsePublicExtendedKey(text: string): HDKey | null {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(text);
  } catch {
    return null;
  }
  return key.privateKey === null ? key : null;
}

/** P2WPKH: witness version 0 with the 20-byte hash160 of the compressed public key. */
function bitcoinP2wpkhAddress(compressedPublicKey: Uint8Array): string {
  const keyHash = ripemd160(sha256(compressedPublicKey));
  return bech32.encode(BITCOIN_MAINNET_HRP, [SEGWIT_V0, ...bech32.toWords(keyHash)]);
}

/** keccak-256 of the uncompressed point without its 0x04 prefix (x ‖ y), last 20 bytes. */
function accountHash(compressedPublicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(compressedPublicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(-ACCOUNT_HASH_BYTES);
}

/**
 * The extended public key of a fresh account from `seed` (random bytes the caller makes). For a
 * demo deployment only: the caller keeps the public key and throws the seed away, so nobody can
 * ever spend what is sent to its addresses. Such addresses are labelled as demo ones to users.
 */
export function demoExtendedPublicKey(seed: Uint8Array): string {
  if (seed.length < 16) throw new RangeError('a seed of at least 16 bytes');
  return HDKey.fromMasterSeed(seed).derive("m/44'/0'/0'").publicExtendedKey;
}
