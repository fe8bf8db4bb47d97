import { ApiError } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { contractKey, createQueryClient, invalidateContracts, isRefusal } from './query.ts';

const orders = { id: 'p2p.orders.list' };
const order = { id: 'p2p.orders.get' };

describe('contractKey', () => {
  it('starts with the contract id, so invalidating the id reaches every input', () => {
    expect(contractKey(orders)).toEqual(['p2p.orders.list']);
    expect(contractKey(orders, { page: 2 })).toEqual(['p2p.orders.list', { page: 2 }]);
  });
});

describe('the query client policy', () => {
  const retry = createQueryClient().getDefaultOptions().queries?.retry as (count: number, error: unknown) => boolean;

  it('never retries a refusal (4xx): asking again gets the same answer', () => {
    expect(isRefusal(new ApiError({ code: 400, msg: 'insufficient balance', data: null }))).toBe(true);
    expect(retry(0, new ApiError({ code: 404, msg: 'record does not exist', data: null }))).toBe(false);
    expect(retry(0, new ApiError({ code: 429, msg: 'too many requests', data: null }))).toBe(false);
  });

  it('retries a network failure or a 5xx twice', () => {
    const down = new ApiError({ code: 503, msg: 'market price unavailable', data: null });
    expect([retry(0, down), retry(1, down), retry(2, down)]).toEqual([true, true, false]);
    expect([retry(0, new TypeError('Failed to fetch')), retry(2, new TypeError('Failed to fetch'))]).toEqual([true, false]);
  });

  it('never retries a mutation by itself (a money-moving call is repeated only by the user)', () => {
    expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });
});

describe('invalidateContracts', () => {
  it('marks every input of the named contracts out of date, and nothing else', async () => {
    const client = createQueryClient();
    client.setQueryData(contractKey(orders, { page: 1 }), { items: [] });
    client.setQueryData(contractKey(orders, { page: 2 }), { items: [] });
    client.setQueryData(contractKey(order, { orderId: '7' }), { id: '7' });
    await invalidateContracts(client, [orders]);
    const state = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([state(contractKey(orders, { page: 1 })), state(contractKey(orders, { page: 2 })), state(contractKey(order, { orderId: '7' }))]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
