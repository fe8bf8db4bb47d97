/**
 * Transaction hashes as users paste them (to claim a deposit, to look up a withdrawal). One
 * normal form per network lets the server compare a pasted hash with the one it stored by plain
 * string equality.
 */
import type { WalletNetwork } from './networks.ts';

const HEX_64 = /^[0-9a-fA-F]{64}$/;

/**
 * Returns the normal form of a transaction hash, or null when the text is not one.
 * Ethereum hashes are written with 0x everywhere, so the prefix is required and kept; bitcoin
 * hashes are never written with it, so a 0x there signals a hash from another chain; TRON
 * explorers show both forms, so the prefix is accepted and dropped. Surrounding whitespace from
 * a paste is ignored.
 */
export function normaliseTxHash(network: WalletNetwork, text: string): string | null {
  const trimmed = text.trim();
  switch (network) {
    case 'ethereum': {
      if (!trimmed.startsWith('0x')) return null;
      const digits = trimmed.slice(2);
      return HEX_64.test(digits) ? `0x${digits.toLowerCase()}` : null;
    }
    case 'bitcoin':
      return HEX_64.test(trimmed) ? trimmed.toLowerCase() : null;
    case 'tron': {
      const digits = trimmed.startsWith('0x') ? trimmed.slice(2) : trimmed;
      return HEX_64.test(digits) ? digits.toLowerCase() : null;
    }
  }
}
