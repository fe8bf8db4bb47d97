import { ApiError, type ContractData, type Envelope, type uploadImageContract } from '@keel/contracts';
import { applySessionRules } from './client.ts';
import { session } from './session.ts';

export type UploadedImage = ContractData<typeof uploadImageContract>;

/**
 * POST /home/uploads/image with the file's raw bytes. The typed client sends JSON only, so this
 * one call is made by hand with the same session token and the same envelope and session rules
 * (spec section 4): a 401 ends the session, "user status incorrect" logs out with fail400.
 * The declared type is only a hint; the server decides the format from the bytes.
 */
export async function uploadImage(file: Blob, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<UploadedImage> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': /^image\/[a-z.+-]+$/.test(file.type) ? file.type : 'application/octet-stream',
  };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let envelope: Envelope;
  try {
    const response = await fetchImpl('/home/uploads/image', { method: 'POST', headers, body: file });
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
