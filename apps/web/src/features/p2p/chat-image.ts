import { ApiError, type Envelope } from '@keel/contracts';
import { useEffect, useState } from 'react';
import { applySessionRules } from '../../shared/api/client.ts';
import { session } from '../../shared/api/session.ts';

/**
 * A chat image as bytes. An <img src> cannot carry the session token, so the image is fetched with
 * it in the Authorization header (as the back-office's staff-image.ts does) and shown from a blob
 * object URL. Only an answer that says it is an image becomes one; anything else is read as the
 * usual envelope and goes through the session rules of spec section 4.
 */
export async function fetchSessionImage(path: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<Blob> {
  const headers: Record<string, string> = {};
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetchImpl(path, { headers });
  } catch {
    throw new ApiError({ code: 500, msg: 'system error', data: null });
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && /^image\/(jpeg|png|gif)\b/.test(type)) return response.blob();
  let envelope: Envelope;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    envelope = { code: response.status || 500, msg: 'system error', data: null };
  }
  const error = new ApiError(envelope);
  applySessionRules(error);
  throw error;
}

/** The image at `path` as an object URL while shown; released when the path changes or the image goes. */
export function useSessionImage(path: string | null): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({ url: null, failed: false });
  useEffect(() => {
    if (!path) return;
    let url: string | null = null;
    let current = true;
    setState({ url: null, failed: false });
    fetchSessionImage(path)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        if (current) setState({ url, failed: false });
        else URL.revokeObjectURL(url);
      })
      .catch(() => {
        if (current) setState({ url: null, failed: true });
      });
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return state;
}
