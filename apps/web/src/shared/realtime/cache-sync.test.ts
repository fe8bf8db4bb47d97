import * as contracts from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { contractIdsByUserEvent } from './cache-sync.ts';

/** Every contract the package exports, by id. */
const isContract = (value: unknown): value is contracts.Contract =>
  typeof value === 'object' && value !== null && 'id' in value && 'method' in value && 'path' in value;
const contractsById = new Map((Object.values(contracts) as unknown[]).filter(isContract).map((contract) => [contract.id, contract]));

describe('contractIdsByUserEvent: what a pushed user event refreshes, named by contract id', () => {
  it('names only ids of read contracts the package exports (a renamed contract fails here, not silently in the cache)', () => {
    const ids = Object.values(contractIdsByUserEvent).flat();
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const contract = contractsById.get(id);
      expect(contract, `no contract has the id ${id}`).toBeDefined();
      expect(contract!.method, `${id} is not a read`).toBe('GET');
    }
  });

  it('refreshes the balances on every event that moves money', () => {
    for (const kind of ['message', 'p2p.order', 'options.order'] as const) expect(contractIdsByUserEvent[kind]).toContain(contracts.listAccountsContract.id);
  });
});
