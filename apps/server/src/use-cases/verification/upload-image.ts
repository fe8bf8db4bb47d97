import { randomUUID } from 'node:crypto';
import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';

export type UploadPurpose = 'verification' | 'deposit_proof' | 'chat' | 'loan_holding' | 'c2c_proof';
import { cleanImage } from '../../uploads/image.ts';

const mediaTypes = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif' } as const;

/**
 * Accepts an image upload: cleaned (format by bytes, fully decoded, re-encoded without metadata),
 * stored encrypted under a random key, recorded as the user's. The row is written after the file,
 * so a crash between the two leaves an orphan file, never a row without its file.
 */
export async function uploadImage(deps: Deps, userId: bigint, bytes: Uint8Array, purpose: UploadPurpose = 'verification') {
  const image = await cleanImage(bytes);
  const storageKey = `${purpose.replace('_', '-')}/${userId}/${randomUUID()}`;
  await deps.storage.put(storageKey, image.bytes);
  const [row] = await deps.db.query<{ id: bigint }>(
    `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
     VALUES ($1, $8, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [userId, storageKey, image.format, image.width, image.height, image.bytes.length, deps.now(), purpose],
  );
  return { uploadId: row!.id.toString(), format: image.format, width: image.width, height: image.height };
}

/**
 * The bytes of an upload, for its owner (`ownerId`) or, with `ownerId` undefined, for staff whose
 * role the route has checked. Another user's upload is "not found": its existence is not told.
 */
export async function readUpload(deps: Deps, uploadId: bigint, ownerId: bigint | undefined, purpose?: UploadPurpose) {
  const [row] = await deps.db.query<{ storage_key: string; format: keyof typeof mediaTypes; user_id: bigint; purpose: UploadPurpose }>(
    'SELECT storage_key, format, user_id, purpose FROM uploads WHERE id = $1',
    [uploadId],
  );
  if (!row || (ownerId !== undefined && row.user_id !== ownerId)) throw new AppError('RECORD_NOT_FOUND');
  // Staff read an upload only for the purpose their role reviews (compliance: verification photos).
  if (purpose !== undefined && row.purpose !== purpose) throw new AppError('RECORD_NOT_FOUND');
  const bytes = await deps.storage.get(row.storage_key);
  if (!bytes) throw new AppError('RECORD_NOT_FOUND');
  return { bytes, mediaType: mediaTypes[row.format], ownerId: row.user_id };
}
