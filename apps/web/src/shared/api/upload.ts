import { ApiError, type ContractData, type Envelope, type uploadImageContract, type uploadPurposes } from '@keel/contracts';
import { applySessionRules } from './client.ts';
import { session } from './session.ts';

export type UploadedImage = ContractData<typeof uploadImageContract>;

/** What an image is for: a verification photo (the default) or a deposit screenshot. */
export type UploadPurpose = (typeof uploadPurposes)[number];

/** The upload path; a purpose other than the default travels as `?purpose=`. */
export function uploadPath(purpose?: UploadPurpose): string {
  return purpose && purpose !== 'verification' ? `/home/uploads/image?purpose=${encodeURIComponent(purpose)}` : '/home/uploads/image';
}

/**
 * POST /home/uploads/image with the file's raw bytes. The typed client sends JSON only, so this
 * one call is made by hand with the same session token and the same envelope and session rules
 * (spec section 4): a 401 ends the session, "user status incorrect" logs out with fail400.
 * The declared type is only a hint; the server decides the format from the bytes. `purpose`
 * (e.g. `deposit_proof`) decides which staff may read the image.
 */
export async function uploadImage(
  file: Blob,
  options: { purpose?: UploadPurpose; fetchImpl?: typeof fetch } = {},
): Promise<UploadedImage> {
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': /^image\/[a-z.+-]+$/.test(file.type) ? file.type : 'application/octet-stream',
  };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let envelope: Envelope;
  try {
    const response = await fetchImpl(uploadPath(options.purpose), { method: 'POST', headers, body: file });
    envelope = (await response.json()) as Envelope;
  } catch {
    envelope = { code: 500, msg: 'system error', data: null };
  }
  if (envelope.code !== 200) {
    const error = new ApiError(envelope);
    applySessionRules(error);
    throw error;
  }
  return envelope.data as UploadedImage;
}
