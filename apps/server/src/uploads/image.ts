import { AppError } from '@keel/contracts';

export type ImageFormat = 'jpeg' | 'png' | 'gif';

/** Upload bounds (TIGER_STYLE: a limit on everything): bytes, and pixels so a small file cannot decode huge. */
import { MAX_IMAGE_BYTES } from '@keel/domain';

export { MAX_IMAGE_BYTES };
export const MIN_IMAGE_BYTES = 64;
export const MAX_IMAGE_PIXELS = 40_000_000;

/** The format decided by the file's first bytes, never by its name or declared type. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  return undefined;
}

export interface CleanImage {
  format: ImageFormat;
  bytes: Uint8Array;
  width: number;
  height: number;
}

/**
 * Accepts a jpg, png or gif upload: checks the size ("file size mismatch"), the format by its bytes
 * and that it decodes completely ("wrong image format"), then re-encodes it in the same format.
 * Re-encoding drops every metadata block (EXIF with GPS position and camera serial, XMP, comments)
 * and anything appended after the image, so what is stored is only pixels.
 */
export async function cleanImage(bytes: Uint8Array): Promise<CleanImage> {
  if (bytes.length < MIN_IMAGE_BYTES || bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError('FILE_SIZE_MISMATCH', { minBytes: MIN_IMAGE_BYTES, maxBytes: MAX_IMAGE_BYTES });
  }
  const format = sniffImageFormat(bytes);
  if (!format) throw new AppError('WRONG_IMAGE_FORMAT', { allowed: ['jpg', 'png', 'gif'] });
  // Loaded with the first upload, not at start-up (issue 15: sharp and libvips cost a tenth of a
  // second), and outside the try: a library that fails to load is a server fault, not a bad image.
  const { default: sharp } = await import('sharp');
  try {
    // failOn 'truncated' refuses a cut-off file instead of decoding the part that is there.
    const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS, animated: format === 'gif' }).rotate();
    const encoded =
      format === 'jpeg' ? image.jpeg({ quality: 90, mozjpeg: true }) : format === 'png' ? image.png({ compressionLevel: 9 }) : image.gif();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { format, bytes: new Uint8Array(data), width: info.width, height: info.pageHeight ?? info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('WRONG_IMAGE_FORMAT', { allowed: ['jpg', 'png', 'gif'] });
  }
}
