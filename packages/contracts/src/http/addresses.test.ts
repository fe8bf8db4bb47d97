import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractAddress } from './address.ts';
import * as http from './index.ts';

// ADR 0025, fourth pass: the tab screens call a few contracts through addresses (address.ts), so
// their first render needs no zod. An address repeats its contract's id, method and path; these
// tests keep the two the same, and keep the address modules free of anything that builds a schema.

const addresses = Object.entries(http).filter(([name]) => name.endsWith('Address')) as [string, ContractAddress][];

describe('contract addresses', () => {
  it('exist (the barrel exports them)', () => {
    expect(addresses.map(([name]) => name)).toEqual(expect.arrayContaining(['unreadAddress', 'listTickersAddress', 'getOptionsOverviewAddress']));
  });

  it.each(addresses)('%s names its contract: same id, method, path and idempotency', (_name, address) => {
    const contract = http.allContracts.find((each) => each.id === address.id);
    expect(contract, `no contract with id ${address.id}`).toBeDefined();
    expect({ method: address.method, path: address.path, idempotent: address.idempotent ?? false }).toEqual({
      method: contract?.method,
      path: contract?.path,
      idempotent: contract?.idempotent ?? false,
    });
  });

  it('modules import zod and contract modules only as types', () => {
    const files = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.addresses\.ts$/.test(file) || file === 'address.ts' || file === 'user-display-name.ts',
    );
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const valueImports = [...readFileSync(join(import.meta.dirname, file), 'utf8').matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)].map((match) => match[1]);
      expect(valueImports, file).toEqual([]);
    }
  });
});
