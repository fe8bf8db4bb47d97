import * as contracts from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { contractIdsByUserEvent, resyncFollowedQueries } from './cache-sync.ts';

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

describe('resyncFollowedQueries: what the push connection\'s resync refetches', () => {
  /** A client holding three followed queries answered at 1,000, 2,000 and 3,000 ms, and the unread flag at 1,000. */
  function clientWithAnswers() {
    const client = new QueryClient();
    const positions = contractKey(contracts.listPositionsContract, { scope: 'open' });
    const overview = contractKey(contracts.getLeverageOverviewContract);
    const accounts = contractKey(contracts.listAccountsContract);
    const unread = contractKey(contracts.unreadContract);
    client.setQueryData(positions, { items: [] }, { updatedAt: 1_000 });
    client.setQueryData(overview, { marks: [] }, { updatedAt: 2_000 });
    client.setQueryData(accounts, { accounts: [] }, { updatedAt: 3_000 });
    client.setQueryData(unread, { unread: false }, { updatedAt: 1_000 });
    const invalidated = () =>
      [positions, overview, accounts, unread].map((key) => client.getQueryCache().find({ queryKey: key, exact: true })?.state.isInvalidated ?? null);
    return { client, invalidated };
  }

  it('at the start, refetches only what was answered before events began to flow, never the unread flag', async () => {
    const { client, invalidated } = clientWithAnswers();
    // Events flow from 2,500 ms: the positions and the overview were answered before, the accounts after.
    await resyncFollowedQueries(client, 'start', 2_500);
    expect(invalidated()).toEqual([true, true, false, false]);
  });

  it('after a gap, refetches every followed query whenever it was answered', async () => {
    const { client, invalidated } = clientWithAnswers();
    await resyncFollowedQueries(client, 'gap', 2_500);
    expect(invalidated()).toEqual([true, true, true, true]);
  });
});
