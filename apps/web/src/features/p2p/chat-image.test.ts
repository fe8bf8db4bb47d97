import { ApiError } from '@keel/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchSessionImage } from './chat-image.ts';

describe('fetchSessionImage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fetches the image with the session token and returns its bytes', async () => {
    vi.stubGlobal('localStorage', { getItem: (key: string) => (key === 'token' ? 'tok' : null) });
    const seen: { url: string; auth: string | undefined }[] = [];
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      seen.push({ url, auth: (init?.headers as Record<string, string> | undefined)?.authorization });
      return new Response(new Uint8Array([0x89, 0x50]), { headers: { 'content-type': 'image/png' } });
    }) as typeof fetch;
    const blob = await fetchSessionImage('/home/p2p/orders/1/chat/2/image', fetchImpl);
    expect(seen).toEqual([{ url: '/home/p2p/orders/1/chat/2/image', auth: 'Bearer tok' }]);
    expect(blob.size).toBe(2);
  });

  it('reads a refusal as the envelope, never as an image', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    const fetchImpl = (async () =>
      new Response(JSON.stringify({ code: 404, msg: 'record does not exist', data: null }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      })) as unknown as typeof fetch;
    const failure = await fetchSessionImage('/x', fetchImpl).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe(404);
  });

  it('does not take an answer of another type for an image', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    const fetchImpl = (async () => new Response('<svg/>', { headers: { 'content-type': 'image/svg+xml' } })) as unknown as typeof fetch;
    const failure = await fetchSessionImage('/x', fetchImpl).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
  });
});
