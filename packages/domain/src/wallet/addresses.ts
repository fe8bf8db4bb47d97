/**
 * Address rules for withdrawals: a destination the user types is checked before anything is
 * signed, because a coin sent to a mistyped or foreign-chain address is gone. Every refusal
 * names one problem so the interface can say what is wrong ("this is a TRON address") instead of
 * a bare "invalid address".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, bech32, bech32m } from '@scure/base';
import type { WalletNetwork } from './networks.ts';

/**
 * Why an address was refused: nothing given, not an address of any shape we know, a typo caught
 * by the address's checksum, or a valid address of another chain or of a test network.
 */
export type AddressProblem = 'empty' | 'format' | 'checksum' | 'wrong_network';

export type AddressCheck = { ok: true; address: string } | { ok: false; problem: AddressProblem };

const accepted = (address: string): AddressCheck => ({ ok: true, address });
const refused = (problem: AddressProblem): AddressCheck => ({ ok: false, problem });

/**
 * Checks a destination address for `network` and returns it in its normal form: bech32 in
 * lower case, Ethereum with its EIP-55 checksum case. Surrounding whitespace from a paste is
 * ignored; anything inside the address is not.
 */
export function checkAddress(network: WalletNetwork, text: string): AddressCheck {
  const trimmed = text.trim();
  if (trimmed === '') return refused('empty');
  const result = checkers[network](trimmed);
  if (result.ok || result.problem !== 'format') return result;
  // Only a text we would otherwise call malformed is worth a second look: when it is a sound
  // address of another chain, the user picked the wrong network, and saying so is what helps.
  const recognised = recogniseNetwork(trimmed);
  return recognised !== null && recognised !== network ? refused('wrong_network') : result;
}

const checkers: Record<WalletNetwork, (trimmed: string) => AddressCheck> = {
  bitcoin: checkBitcoin,
  ethereum: checkEthereum,
  tron: checkTron,
};

function recogniseNetwork(trimmed: string): WalletNetwork | null {
  // The 0x shape alone is enough: no bitcoin or TRON address can start with 0x, so a mistyped
  // Ethereum address is still an Ethereum address for the purpose of naming the wrong network.
  if (ETHEREUM_TEXT.test(trimmed)) return 'ethereum';
  const asBitcoin = checkBitcoin(trimmed);
  if (asBitcoin.ok || asBitcoin.problem === 'wrong_network') return 'bitcoin';
  return checkTron(trimmed).ok ? 'tron' : null;
}

// ---------------------------------------------------------------------------------------------
// Bitcoin (mainnet only)

/** Base58check version bytes (first payload byte) of bitcoin's legacy address kinds. */
const BITCOIN_P2PKH_VERSION = 0x00;
const BITCOIN_P2SH_VERSION = 0x05;
const BITCOIN_TESTNET_P2PKH_VERSION = 0x6f;
const BITCOIN_TESTNET_P2SH_VERSION = 0xc4;

const BITCOIN_MAINNET_HRP = 'bc';
/** Testnet/signet ("tb") and regtest ("bcrt") prefixes: recognised only to be refused as such. */
const SEGWIT_TEXT = /^(bc|tb|bcrt)1([qpzry9x8gf2tvdw0s3jn54khce6mua7l]+)$/;
/** BIP173: a segwit address is at most 90 characters. */
const MAX_SEGWIT_ADDRESS_CHARS = 90;
/** One character for the witness version and six for the checksum. */
const MIN_SEGWIT_DATA_CHARS = 7;
const TAPROOT_PROGRAM_BYTES = 32;

function checkBitcoin(trimmed: string): AddressCheck {
  const lower = trimmed.toLowerCase();
  // No base58 bitcoin address starts with these prefixes (legacy ones start with 1, 3, m, n or
  // 2), so the prefix alone decides which of the two encodings to read.
  if (lower.startsWith('bc1') || lower.startsWith('tb1') || lower.startsWith('bcrt1')) return checkSegwit(trimmed);
  const decoded = decodeBase58check(trimmed);
  if (!decoded.ok) return refused(decoded.problem);
  const version = decoded.payload[0];
  if (version === BITCOIN_P2PKH_VERSION || version === BITCOIN_P2SH_VERSION) return accepted(trimmed);
  if (version === BITCOIN_TESTNET_P2PKH_VERSION || version === BITCOIN_TESTNET_P2SH_VERSION) return refused('wrong_network');
  return refused('format');
}

/**
 * Segwit addresses per BIP173 and BIP350: witness version 0 uses the bech32 checksum with a 20
 * or 32 byte program; versions 1 to 16 use bech32m. A version-1 program must be 32 bytes
 * (taproot): other lengths under version 1 have no spending rule today, so coins sent there can
 * be taken by anyone, and no wallet produces such an address. Versions 2 to 16 are accepted as
 * BIP350 asks of senders, with the BIP's 2 to 40 byte program bounds.
 */
function checkSegwit(trimmed: string): AddressCheck {
  const lower = trimmed.toLowerCase();
  // BIP173 allows all upper case (it fits QR codes) but never mixed case.
  if (trimmed !== lower && trimmed !== trimmed.toUpperCase()) return refused('format');
  const match = SEGWIT_TEXT.exec(lower);
  if (!match || lower.length > MAX_SEGWIT_ADDRESS_CHARS || match[2]!.length < MIN_SEGWIT_DATA_CHARS) return refused('format');
  // The text has the shape of a bech32 string, so a failure from here on is a typo the checksum
  // caught, not a malformed input. No string passes both checksums, so at most one decodes.
  const asBech32 = bech32.decodeUnsafe(lower, MAX_SEGWIT_ADDRESS_CHARS);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower, MAX_SEGWIT_ADDRESS_CHARS);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) return refused('checksum');
  const [witnessVersion, ...programWords] = decoded.words;
  if (witnessVersion === undefined || witnessVersion > 16) return refused('format');
  // fromWords refuses more than 4 bits of padding and non-zero padding, as BIP173 requires.
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program || program.length < 2 || program.length > 40) return refused('format');
  if (witnessVersion === 0 && program.length !== 20 && program.length !== 32) return refused('format');
  // BIP350 binds the checksum variant to the version, which is what catches a v0 address whose
  // last characters were changed into a valid bech32m string (and the reverse). It is checked
  // after the program, in the order of the BIP's reference decoder, so each test vector is
  // refused for the reason the BIP gives.
  const usesBech32 = asBech32 !== undefined;
  if (usesBech32 !== (witnessVersion === 0)) return refused('checksum');
  if (witnessVersion === 1 && program.length !== TAPROOT_PROGRAM_BYTES) return refused('format');
  if (decoded.prefix !== BITCOIN_MAINNET_HRP) return refused('wrong_network');
  return accepted(lower);
}

// ---------------------------------------------------------------------------------------------
// Ethereum

const ETHEREUM_TEXT = /^0x[0-9a-fA-F]{40}$/;
const HEX_40 = /^[0-9a-fA-F]{40}$/;

/**
 * An address in one case carries no checksum (old wallets and exchanges print them so), so it is
 * accepted and given its checksum; an address in mixed case claims an EIP-55 checksum, and a
 * wrong one means a character was changed.
 */
function checkEthereum(trimmed: string): AddressCheck {
  if (!ETHEREUM_TEXT.test(trimmed)) return refused('format');
  const digits = trimmed.slice(2);
  const checksummed = ethereumChecksumAddress(digits);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return accepted(checksummed);
  return trimmed === checksummed ? accepted(checksummed) : refused('checksum');
}

/**
 * EIP-55: each letter of the lower-case hex address is upper-cased when the matching nibble of
 * keccak-256(lower-case hex text) is 8 or more. Takes 40 hex digits, with or without 0x, in any
 * case; throws on anything else, because a caller passing a non-address is a programming error.
 */
export function ethereumChecksumAddress(hex40OrWith0x: string): string {
  const digits = hex40OrWith0x.startsWith('0x') ? hex40OrWith0x.slice(2) : hex40OrWith0x;
  if (!HEX_40.test(digits)) throw new TypeError('an Ethereum address is 40 hex digits');
  const lower = digits.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let checksummed = '0x';
  for (let i = 0; i < lower.length; i += 1) {
    const hashByte = hash[i >> 1]!;
    const nibble = i % 2 === 0 ? hashByte >> 4 : hashByte & 0x0f;
    checksummed += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return checksummed;
}

// ---------------------------------------------------------------------------------------------
// TRON

/** TRON mainnet addresses are base58check of 0x41 followed by the 20-byte account hash. */
const TRON_ADDRESS_VERSION = 0x41;

function checkTron(trimmed: string): AddressCheck {
  const decoded = decodeBase58check(trimmed);
  if (!decoded.ok) return refused(decoded.problem);
  return decoded.payload[0] === TRON_ADDRESS_VERSION ? accepted(trimmed) : refused('format');
}

// ---------------------------------------------------------------------------------------------
// Base58check, shared by bitcoin's legacy addresses and TRON

const BASE58_TEXT = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** A 25-byte value is at most 34 base58 characters; the bound also caps the quadratic decode. */
const MAX_BASE58_ADDRESS_CHARS = 35;
/** One version byte, a 20-byte hash, then a 4-byte checksum. */
const BASE58_ADDRESS_BYTES = 25;
const BASE58_CHECKSUM_BYTES = 4;

type Base58Decoded = { ok: true; payload: Uint8Array } | { ok: false; problem: 'format' | 'checksum' };

/**
 * Decodes a 25-byte base58check address by hand rather than with a base58check codec, because
 * the codec throws the same way for a bad character and a bad checksum, and the user is told
 * differently for each.
 */
function decodeBase58check(text: string): Base58Decoded {
  if (text.length > MAX_BASE58_ADDRESS_CHARS || !BASE58_TEXT.test(text)) return { ok: false, problem: 'format' };
  const bytes = base58.decode(text);
  if (bytes.length !== BASE58_ADDRESS_BYTES) return { ok: false, problem: 'format' };
  const payload = bytes.subarray(0, BASE58_ADDRESS_BYTES - BASE58_CHECKSUM_BYTES);
  const checksum = bytes.subarray(BASE58_ADDRESS_BYTES - BASE58_CHECKSUM_BYTES);
  const expected = sha256(sha256(payload));
  for (let i = 0; i < BASE58_CHECKSUM_BYTES; i += 1) {
    if (checksum[i] !== expected[i]) return { ok: false, problem: 'checksum' };
  }
  return { ok: true, payload };
}
