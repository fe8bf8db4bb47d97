import { ApiError, type Envelope } from '@keel/contracts';
import { useEffect, useState } from 'react';
import { reportStaffError, staffToken } from './api.ts';

/**
 * A staff-only image (a verification photo) as an object URL. An <img src> cannot carry the
 * staff token, so the bytes are fetched with it in the Authorization header and shown from a blob;
 * the URL is released when the image is no longer shown. Errors stay JSON envelopes.
 */
export async function fetchStaffImage(path: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<Blob> {
  const headers: Record<string, string> = {};
  const token = staffToken.get();
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetchImpl(path, { headers });
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && type.startsWith('image/')) return response.blob();
  let envelope: Envelope;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    envelope = { code: response.status || 500, msg: 'system error', data: null };
  }
  const error = new ApiError(envelope);
  reportStaffError(error);
  throw error;
}

export function useStaffImage(path: string | null): { url: string | null; error: unknown } {
  const [state, setState] = useState<{ url: string | null; error: unknown }>({ url: null, error: null });
  useEffect(() => {
    if (!path) return;
    let url: string | null = null;
    let current = true;
    setState({ url: null, error: null });
    fetchStaffImage(path)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        if (current) setState({ url, error: null });
        else URL.revokeObjectURL(url);
      })
      .catch((error: unknown) => {
        if (current) setState({ url: null, error });
      });
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return state;
}
