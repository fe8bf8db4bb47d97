import { ApiError, type ContractData, type Envelope, uploadContentImageContract } from '@keel/contracts';
import { reportStaffError, staffToken } from '../../shared/api.ts';

export type UploadedContentImage = ContractData<typeof uploadContentImageContract>;

/**
 * POST /home/admin/content/images with the file's raw bytes: the typed client sends JSON only, so
 * this one call is made by hand, with the staff token and the staff session rules (a 401 ends the
 * session). The declared type is a hint; the server decides the format from the bytes, cleans
 * the image and answers the path to write in Markdown.
 */
export async function uploadContentImage(file: Blob, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<UploadedContentImage> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': /^image\/[a-z.+-]+$/.test(file.type) ? file.type : 'application/octet-stream',
  };
  const token = staffToken.get();
  if (token) headers.authorization = `Bearer ${token}`;
  let envelope: Envelope;
  try {
    const response = await fetchImpl(uploadContentImageContract.path, { method: 'POST', headers, body: file });
    envelope = (await response.json()) as Envelope;
  } catch {
    envelope = { code: 500, msg: 'system error', data: null };
  }
  if (envelope.code !== 200) {
    const error = new ApiError(envelope);
    reportStaffError(error);
    throw error;
  }
  return uploadContentImageContract.data.parse(envelope.data);
}
