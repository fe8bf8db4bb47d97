import { describe, expect, it } from 'vitest';
import { imageFileProblem, sniffImageFormat } from './image-check.ts';

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pad = (head: number[], size = 200) => {
  const bytes = new Uint8Array(size);
  bytes.set(head);
  return bytes;
};

describe('image checks before upload (mirror of the server)', () => {
  it('knows JPEG, PNG and GIF by their bytes only', () => {
    expect(sniffImageFormat(pad([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(pad(png))).toBe('png');
    expect(sniffImageFormat(pad([...'GIF89a'].map((c) => c.charCodeAt(0))))).toBe('gif');
    expect(sniffImageFormat(pad([...'GIF87a'].map((c) => c.charCodeAt(0))))).toBe('gif');
    expect(sniffImageFormat(pad([...'GIF88a'].map((c) => c.charCodeAt(0))))).toBeUndefined();
    expect(sniffImageFormat(pad([...'<html>'].map((c) => c.charCodeAt(0))))).toBeUndefined();
    expect(sniffImageFormat(pad([...'%PDF-1.4'].map((c) => c.charCodeAt(0))))).toBeUndefined();
  });

  it('refuses a file by its bytes, whatever its name or type says, and by its size', async () => {
    expect(await imageFileProblem(new File([pad(png)], 'photo.jpg', { type: 'image/jpeg' }))).toBeUndefined();
    expect(await imageFileProblem(new File([pad([...'<html>'].map((c) => c.charCodeAt(0)))], 'photo.png', { type: 'image/png' }))).toBe('format');
    expect(await imageFileProblem(new File([new Uint8Array(png)], 'tiny.png'))).toBe('size');
    expect(await imageFileProblem(new File([pad(png, 8 * 1024 * 1024 + 1)], 'huge.png'))).toBe('size');
  });
});
