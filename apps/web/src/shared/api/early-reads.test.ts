import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_READ_TTL_MS, fetchWithEarlyReads, startEarlyReads } from './early-reads.ts';

const answer = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
const asClient = (token: string) => ({ method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${token}` } });

describe('early reads: the first screen’s GETs started by the first script, taken by the API client', () => {
  let network: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    network = vi.fn(async (url: string) => answer({ code: 200, msg: 'ok', data: { url } }));
    vi.stubGlobal('fetch', network);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('sends each read once with the session, and the client’s same GET gets that answer without asking again', async () => {
    startEarlyReads(['/home/options/overview'], 'token-a');
    expect(network).toHaveBeenCalledTimes(1);
    expect(network.mock.calls[0]).toEqual(['/home/options/overview', { headers: { accept: 'application/json', authorization: 'Bearer token-a' } }]);
    const response = await fetchWithEarlyReads('/home/options/overview', asClient('token-a'));
    expect(await response.json()).toEqual({ code: 200, msg: 'ok', data: { url: '/home/options/overview' } });
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('gives an early answer once: a refetch asks the server', async () => {
    startEarlyReads(['/home/user/unread'], 'token-a');
    await fetchWithEarlyReads('/home/user/unread', asClient('token-a'));
    await fetchWithEarlyReads('/home/user/unread', asClient('token-a'));
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('never gives one session’s answer to another', async () => {
    startEarlyReads(['/home/user/me'], 'token-a');
    await fetchWithEarlyReads('/home/user/me', asClient('token-b'));
    expect(network).toHaveBeenCalledTimes(2);
    expect(network.mock.calls[1]![1]).toEqual(asClient('token-b'));
  });

  it('only answers a GET of the same address', async () => {
    startEarlyReads(['/home/options/orders?scope=open&page=1&pageSize=100'], 'token-a');
    await fetchWithEarlyReads('/home/options/orders?scope=open&page=2&pageSize=100', asClient('token-a'));
    await fetchWithEarlyReads('/home/options/orders?scope=open&page=1&pageSize=100', { ...asClient('token-a'), method: 'POST' });
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('lets an answer older than the time limit go: a screen opened later reads afresh', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    startEarlyReads(['/home/market/tickers'], 'token-a');
    vi.setSystemTime(Date.now() + EARLY_READ_TTL_MS);
    await fetchWithEarlyReads('/home/market/tickers', asClient('token-a'));
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('sends a public read without a session as the client does, and gives it only to a client without one', async () => {
    startEarlyReads(['/home/index/site'], null);
    expect(network.mock.calls[0]).toEqual(['/home/index/site', { headers: { accept: 'application/json' } }]);
    await fetchWithEarlyReads('/home/index/site', { method: 'GET', headers: { accept: 'application/json' } });
    expect(network).toHaveBeenCalledTimes(1);
    startEarlyReads(['/home/index/site'], null);
    await fetchWithEarlyReads('/home/index/site', asClient('token-a'));
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('reports a failed early read where it is taken, as the client reports any network failure', async () => {
    network.mockRejectedValueOnce(new TypeError('offline'));
    startEarlyReads(['/home/assets/accounts'], 'token-a');
    await expect(fetchWithEarlyReads('/home/assets/accounts', asClient('token-a'))).rejects.toThrow('offline');
  });
});
