import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from './client.ts';
import { setUserStatusContract, unreadContract } from './http/index.ts';

function fakeFetch(answer: unknown, seen: { url?: string; init?: RequestInit }[]) {
  return (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
}

describe('typed API client', () => {
  it('sends the token, fills path parameters and answers data', async () => {
    const seen: { url?: string; init?: RequestInit }[] = [];
    const call = createApiClient({ baseUrl: 'http://x', getToken: () => 'tok', fetchImpl: fakeFetch({ code: 200, msg: 'success', data: { id: '7' } }, seen) });
    const data = await call(setUserStatusContract, { params: { userId: '7' }, body: { status: 'banned', reason: 'fraud' } });
    expect(data).toEqual({ id: '7' });
    expect(seen[0]!.url).toBe('http://x/home/admin/users/7/status');
    expect(seen[0]!.init!.method).toBe('PUT');
    expect((seen[0]!.init!.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('throws ApiError for a non-200 envelope after telling onError', async () => {
    const errors: ApiError[] = [];
    const call = createApiClient({
      baseUrl: '',
      getToken: () => null,
      onError: (error) => errors.push(error),
      fetchImpl: fakeFetch({ code: 400, msg: 'user status incorrect', data: null }, []),
    });
    await expect(call(unreadContract)).rejects.toBeInstanceOf(ApiError);
    expect(errors[0]).toMatchObject({ code: 400, message: 'user status incorrect' });
  });

  it('reports an unreachable server as a system error', async () => {
    const call = createApiClient({
      baseUrl: '',
      getToken: () => null,
      fetchImpl: (async () => {
        throw new TypeError('network down');
      }) as unknown as typeof fetch,
    });
    await expect(call(unreadContract)).rejects.toMatchObject({ code: 500, message: 'system error' });
  });
});
