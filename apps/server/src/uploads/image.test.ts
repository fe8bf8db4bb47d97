import { AppError } from '@keel/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cleanImage, MAX_IMAGE_BYTES, sniffImageFormat } from './image.ts';

const pixels = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 60 } } });
const png = async () => new Uint8Array(await pixels().png().toBuffer());
const gif = async () => new Uint8Array(await pixels().gif().toBuffer());
/** A JPEG carrying EXIF (camera, GPS-like text) and a comment, as a phone photo would. */
const jpegWithMetadata = async () =>
  new Uint8Array(
    await pixels()
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Model: 'Model-X', ImageDescription: 'GPS 52.5200N 13.4050E' } })
      .toBuffer(),
  );

async function refusal(bytes: Uint8Array): Promise<string> {
  try {
    await cleanImage(bytes);
  } catch (error) {
    if (error instanceof AppError) return error.key;
    throw error;
  }
  return 'accepted';
}

describe('image uploads', () => {
  it('decides the format by the bytes: a PNG named .jpg is a PNG', async () => {
    const bytes = await png();
    expect(sniffImageFormat(bytes)).toBe('png');
    const clean = await cleanImage(bytes);
    expect(clean).toMatchObject({ format: 'png', width: 40, height: 30 });
    expect(sniffImageFormat(clean.bytes)).toBe('png');
  });

  it('accepts GIF and JPEG', async () => {
    expect((await cleanImage(await gif())).format).toBe('gif');
    expect((await cleanImage(await jpegWithMetadata())).format).toBe('jpeg');
  });

  it('strips metadata when re-encoding', async () => {
    const original = await jpegWithMetadata();
    expect(Buffer.from(original).includes('SecretCam')).toBe(true);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const clean = await cleanImage(original);
    expect(Buffer.from(clean.bytes).includes('SecretCam')).toBe(false);
    expect(Buffer.from(clean.bytes).includes('GPS 52.5200N')).toBe(false);
    expect((await sharp(clean.bytes).metadata()).exif).toBeUndefined();
  });

  it('refuses HTML and PDF renamed to .png, and plain text', async () => {
    const html = new TextEncoder().encode(`<!doctype html><html><body><script>alert(1)</script>${' '.repeat(100)}</body></html>`);
    const pdf = new TextEncoder().encode(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n${'x'.repeat(100)}\n%%EOF`);
    expect(await refusal(html)).toBe('WRONG_IMAGE_FORMAT');
    expect(await refusal(pdf)).toBe('WRONG_IMAGE_FORMAT');
  });

  it('refuses a truncated image and a header with garbage behind it', async () => {
    const bytes = await png();
    expect(await refusal(bytes.subarray(0, Math.floor(bytes.length / 2)))).toBe('WRONG_IMAGE_FORMAT');
    const fake = new Uint8Array(200);
    fake.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(await refusal(fake)).toBe('WRONG_IMAGE_FORMAT');
  });

  it('refuses an oversized file and an empty one by size', async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(await png());
    expect(await refusal(big)).toBe('FILE_SIZE_MISMATCH');
    expect(await refusal(new Uint8Array(0))).toBe('FILE_SIZE_MISMATCH');
  });
});
