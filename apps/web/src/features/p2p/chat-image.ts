import { ApiError, type Envelope, getP2pChatImageContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQuery } from '@tanstack/react-query';
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

/**
 * The image at `path` as an object URL while shown. The bytes are a query (ADR 0026) that never goes
 * stale — a chat image never changes — so the chat drawn again (embedded, then full screen) asks
 * nothing; the object URL is made for the component and released when the path changes or it goes.
 */
export function useSessionImage(path: string | null): { url: string | null; failed: boolean } {
  const image = useQuery({
    queryKey: contractKey(getP2pChatImageContract, { path }),
    queryFn: () => fetchSessionImage(path ?? ''),
    enabled: path !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string | null>(null);
  const blob = image.data;
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [blob]);
  return { url: blob ? url : null, failed: image.isError };
}
