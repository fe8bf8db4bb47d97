import { MAX_IMAGE_BYTES } from '@keel/domain';

/** The server's lower bound for an image (ADR 0014); anything smaller cannot be a real photo. */
export const MIN_IMAGE_BYTES = 64;

export type ImageFormat = 'jpeg' | 'png' | 'gif';

/**
 * The format by the file's first bytes, as the server decides it (ADR 0014): JPEG FF D8 FF, the
 * PNG signature, GIF87a / GIF89a. The name and the declared type do not count.
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const starts = (signature: number[]) => signature.every((value, index) => bytes[index] === value);
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  return undefined;
}

/**
 * The checks made before an upload, mirroring the server's: size within 64 bytes–8 MiB ("upload
 * file size does not match"), jpg/png/gif by the bytes ("incorrect image format"). The server
 * still decodes the whole image and decides.
 */
export async function imageFileProblem(file: Blob): Promise<'size' | 'format' | undefined> {
  if (file.size < MIN_IMAGE_BYTES || file.size > MAX_IMAGE_BYTES) return 'size';
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImageFormat(head) ? undefined : 'format';
}
