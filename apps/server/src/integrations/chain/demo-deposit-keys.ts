import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoExtendedPublicKey, type WalletNetwork, walletNetworks } from '@keel/domain';

/**
 * Deposit keys of a demo deployment (SEED_DEMO on, not production) for networks the operator gave
 * no address source: one extended public key per network, made once from random bytes that are
 * thrown away at once and kept in DATA_DIR so addresses stay the same across restarts. No private
 * key exists anywhere: the deposit page says so, and that funds sent there are lost.
 */
export function loadOrCreateDemoDepositKeys(dataDir: string, networks: readonly WalletNetwork[]): Partial<Record<WalletNetwork, string>> {
  if (networks.length === 0) return {};
  // A throw-away in-memory deployment keeps its demo keys in memory too.
  const path = dataDir.startsWith('memory://') ? undefined : join(dataDir, 'wallet-demo-xpubs.json');
  const stored: Partial<Record<WalletNetwork, string>> = path && existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  let changed = false;
  for (const network of networks) {
    if (stored[network]) continue;
    stored[network] = demoExtendedPublicKey(randomBytes(32));
    changed = true;
  }
  if (changed && path) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, `${JSON.stringify(stored, null, 2)}\n`);
  }
  return Object.fromEntries(walletNetworks.filter((network) => networks.includes(network)).map((network) => [network, stored[network]!]));
}
