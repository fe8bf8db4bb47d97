import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadImage, uploadPath } from './upload.ts';

describe('uploadPath', () => {
  it('keeps the plain path for verification photos and adds the purpose otherwise', () => {
    expect(uploadPath()).toBe('/home/uploads/image');
    expect(uploadPath('verification')).toBe('/home/uploads/image');
    expect(uploadPath('deposit_proof')).toBe('/home/uploads/image?purpose=deposit_proof');
  });
});

describe('uploadImage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the bytes to the path of its purpose and returns the answer', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    const calls: string[] = [];
    const fetchImpl = (async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: { uploadId: '7', format: 'png', width: 1, height: 1 } }));
    }) as typeof fetch;
    const answer = await uploadImage(new Blob([new Uint8Array(80)], { type: 'image/png' }), { purpose: 'deposit_proof', fetchImpl });
    expect(calls).toEqual(['/home/uploads/image?purpose=deposit_proof']);
    expect(answer.uploadId).toBe('7');
  });
});
