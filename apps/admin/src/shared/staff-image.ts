import { ApiError, type Envelope } from '@keel/contracts';
import { useQuery } from '@tanstack/react-query';
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

/**
 * A staff-only image as an object URL while it is shown. It is a query keyed by its path, but
 * every fetch is a view the server writes to the audit log, so an image on screen is never
 * fetched again behind the member's back (no refetch on focus: `staleTime` Infinity), and it is
 * dropped as soon as nothing shows it (`gcTime` 0): opening the record again is a new, audited view.
 */
export function useStaffImage(path: string | null): { url: string | null; error: unknown } {
  const image = useQuery({
    queryKey: ['admin.staffImage', path],
    queryFn: () => fetchStaffImage(path!),
    enabled: path !== null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(image.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [image.data]);
  return { url, error: image.error };
}
