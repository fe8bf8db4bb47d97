import { randomUUID } from 'node:crypto';
import { type ContentKind, type ContentLanguage, contentLanguages, type HelpCategory, isLive } from '@keel/domain';
import { AppError, type ContentItemSettings, type StaffContentDetail, type StaffContentItem } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { cleanImage } from '../../uploads/image.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { assertPublishableText, type ContentText, writeTranslation } from './content-text.ts';

// Content staff's writes (issue 20, ADR 0044). Every write runs in one transaction with its audit
// entry, locks the item's row first (one order for every write: the item, then its translations),
// and bumps the item's revision, which the readers' ETag follows.

interface ItemRow {
  id: bigint;
  kind: ContentKind;
  slug: string | null;
  category: HelpCategory | null;
  parent_id: bigint | null;
  sort_order: number;
  market_symbols: string[];
  link_path: string | null;
  sample: boolean;
  status: 'draft' | 'published' | 'unpublished';
  publish_at: Date | null;
  revision: number;
  updated_at: Date;
}

interface TextRow {
  item_id: bigint;
  language: ContentLanguage;
  title: string;
  summary: string;
  body: string;
  updated_at: Date;
}

const ITEM_COLUMNS = 'id, kind, slug, category, parent_id, sort_order, market_symbols, link_path, sample, status, publish_at, revision, updated_at';

export interface ResolvedSettings {
  category: HelpCategory | null;
  parentId: string | null;
  sortOrder: number;
  marketSymbols: string[];
  linkPath: string | null;
  sample: boolean;
}

/** The settings that fit the kind, or PARAMETER_ERROR naming the field that does not. */
async function checkSettings(db: Queryable, kind: ContentKind, settings: ResolvedSettings, itemId?: bigint): Promise<void> {
  const wrong = (field: string, message: string) => {
    throw new AppError('PARAMETER_ERROR', { fields: [{ field, message }] });
  };
  if ((kind === 'help') !== (settings.category !== null)) wrong('category', kind === 'help' ? 'this field is required' : 'help articles only');
  if ((kind === 'lesson') !== (settings.parentId !== null)) wrong('parentId', kind === 'lesson' ? 'this field is required' : 'lessons only');
  if (kind !== 'banner' && settings.linkPath !== null) wrong('linkPath', 'banners only');
  if (kind !== 'industry_news' && settings.sample) wrong('sample', 'industry news only');
  if (kind !== 'announcement' && kind !== 'industry_news' && settings.marketSymbols.length > 0) wrong('marketSymbols', 'news only');
  if (new Set(settings.marketSymbols).size !== settings.marketSymbols.length) wrong('marketSymbols', 'no duplicate symbols');
  if (settings.parentId !== null) {
    const [parent] = await db.query<{ kind: ContentKind }>('SELECT kind FROM content_items WHERE id = $1', [BigInt(settings.parentId)]);
    if (parent?.kind !== 'course' || (itemId !== undefined && BigInt(settings.parentId) === itemId)) wrong('parentId', 'must be a course');
  }
}

function resolve(settings: ContentItemSettings): ResolvedSettings {
  return {
    category: settings.category ?? null,
    parentId: settings.parentId ?? null,
    sortOrder: Number(settings.sortOrder ?? 0),
    marketSymbols: settings.marketSymbols ?? [],
    linkPath: settings.linkPath ?? null,
    sample: settings.sample ?? false,
  };
}

async function lockItem(tx: Queryable, itemId: bigint): Promise<ItemRow> {
  const [row] = await tx.query<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM content_items WHERE id = $1 FOR UPDATE`, [itemId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return row;
}

function stateOf(item: ItemRow, texts: TextRow[], now: Date): StaffContentItem {
  const english = texts.find((t) => t.language === 'en');
  const englishAt = english?.updated_at.getTime() ?? 0;
  const have = new Set(texts.map((t) => t.language));
  return {
    id: item.id.toString(),
    kind: item.kind,
    slug: item.slug,
    category: item.category,
    parentId: item.parent_id?.toString() ?? null,
    sortOrder: item.sort_order,
    marketSymbols: item.market_symbols,
    linkPath: item.link_path,
    sample: item.sample,
    status: item.status,
    publishAtMs: item.publish_at?.getTime() ?? null,
    live: isLive({ status: item.status, publishAtMs: item.publish_at?.getTime() ?? null }, now.getTime()),
    revision: item.revision,
    updatedAtMs: item.updated_at.getTime(),
    title: english?.title ?? '',
    translations: texts
      .filter((t) => t.language !== 'en')
      .map((t) => ({ language: t.language, updatedAtMs: t.updated_at.getTime(), stale: t.updated_at.getTime() < englishAt })),
    missingLanguages: contentLanguages.filter((l) => !have.has(l)),
  };
}

async function detailOf(db: Queryable, itemId: bigint, now: Date): Promise<StaffContentDetail> {
  const [item] = await db.query<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM content_items WHERE id = $1`, [itemId]);
  if (!item) throw new AppError('RECORD_NOT_FOUND');
  const texts = await db.query<TextRow>('SELECT item_id, language, title, summary, body, updated_at FROM content_translations WHERE item_id = $1', [itemId]);
  const order = (l: ContentLanguage) => contentLanguages.indexOf(l);
  texts.sort((a, b) => order(a.language) - order(b.language));
  return {
    ...stateOf(item, texts, now),
    texts: texts.map((t) => ({ language: t.language, title: t.title, summary: t.summary, body: t.body, updatedAtMs: t.updated_at.getTime() })),
  };
}

export async function listStaffContent(
  deps: Pick<Deps, 'db' | 'now'>,
  query: { kind?: ContentKind | undefined; status?: ItemRow['status'] | undefined; page: number; pageSize: number },
) {
  const params: unknown[] = [];
  const where: string[] = [];
  if (query.kind) {
    params.push(query.kind);
    where.push(`kind = $${params.length}`);
  }
  if (query.status) {
    params.push(query.status);
    where.push(`status = $${params.length}`);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const items = await deps.db.query<ItemRow & { total: string }>(
    `SELECT ${ITEM_COLUMNS}, count(*) OVER () AS total FROM content_items ${clause}
      ORDER BY updated_at DESC, id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    params,
  );
  const texts =
    items.length === 0
      ? []
      : await deps.db.query<TextRow>(
          'SELECT item_id, language, title, summary, \'\' AS body, updated_at FROM content_translations WHERE item_id = ANY($1::bigint[])',
          [items.map((i) => i.id)],
        );
  const now = deps.now();
  return {
    items: items.map((item) => stateOf(item, texts.filter((t) => t.item_id === item.id), now)),
    total: items[0] ? Number(items[0].total) : 0,
  };
}

export async function getStaffContent(deps: Pick<Deps, 'db' | 'now'>, itemId: bigint) {
  return detailOf(deps.db, itemId, deps.now());
}

/** A new draft with its English text. */
export async function createContent(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  input: ContentItemSettings & { kind: ContentKind; english: ContentText },
  requestId?: string,
) {
  const settings = resolve(input);
  assertPublishableText(input.kind, input.english);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await checkSettings(tx, input.kind, settings);
    const [row] = await tx.query<{ id: bigint }>(
      `INSERT INTO content_items (kind, category, parent_id, sort_order, market_symbols, link_path, sample, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
      [input.kind, settings.category, settings.parentId, settings.sortOrder, settings.marketSymbols, settings.linkPath, settings.sample, staff.staff.id, now],
    );
    await writeTranslation(tx, row!.id, 'en', input.english, staff.staff.id, now);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: 'content.created',
      targetType: 'content_item',
      targetId: row!.id.toString(),
      detail: { kind: input.kind, title: input.english.title },
      requestId,
      at: now,
    });
    return detailOf(tx, row!.id, now);
  });
}

export async function updateContent(deps: Pick<Deps, 'db' | 'now'>, staff: StaffSession, itemId: bigint, input: ContentItemSettings, requestId?: string) {
  const settings = resolve(input);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const item = await lockItem(tx, itemId);
    await checkSettings(tx, item.kind, settings, itemId);
    await tx.query(
      `UPDATE content_items SET category = $2, parent_id = $3, sort_order = $4, market_symbols = $5, link_path = $6, sample = $7,
              revision = revision + 1, updated_at = $8 WHERE id = $1`,
      [itemId, settings.category, settings.parentId, settings.sortOrder, settings.marketSymbols, settings.linkPath, settings.sample, now],
    );
    await appendAudit(tx, { staffId: staff.staff.id, action: 'content.updated', targetType: 'content_item', targetId: itemId.toString(), detail: { ...settings }, requestId, at: now });
    return detailOf(tx, itemId, now);
  });
}

export async function saveContentTranslation(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  itemId: bigint,
  language: ContentLanguage,
  text: ContentText,
  requestId?: string,
) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const item = await lockItem(tx, itemId);
    assertPublishableText(item.kind, text);
    await writeTranslation(tx, itemId, language, text, staff.staff.id, now);
    await tx.query('UPDATE content_items SET revision = revision + 1, updated_at = $2 WHERE id = $1', [itemId, now]);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: 'content.translated',
      targetType: 'content_item',
      targetId: itemId.toString(),
      detail: { language, title: text.title },
      requestId,
      at: now,
    });
    return detailOf(tx, itemId, now);
  });
}

export async function deleteContentTranslation(deps: Pick<Deps, 'db' | 'now'>, staff: StaffSession, itemId: bigint, language: ContentLanguage, requestId?: string) {
  // English is what every reader falls back to: it is never removed (the contract refuses `en` too).
  if (language === 'en') throw new AppError('PARAMETER_ERROR', { fields: [{ field: 'language', message: 'English cannot be removed' }] });
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await lockItem(tx, itemId);
    const removed = await tx.query('DELETE FROM content_translations WHERE item_id = $1 AND language = $2 RETURNING language', [itemId, language]);
    if (removed.length === 0) throw new AppError('RECORD_NOT_FOUND');
    await tx.query('UPDATE content_items SET revision = revision + 1, updated_at = $2 WHERE id = $1', [itemId, now]);
    await appendAudit(tx, { staffId: staff.staff.id, action: 'content.untranslated', targetType: 'content_item', targetId: itemId.toString(), detail: { language }, requestId, at: now });
    return detailOf(tx, itemId, now);
  });
}

/** Publishes now or at a later time (scheduled). Publishing again moves the time. */
export async function publishContent(deps: Pick<Deps, 'db' | 'now'>, staff: StaffSession, itemId: bigint, publishAtMs: number | null, requestId?: string) {
  const now = deps.now();
  const at = publishAtMs === null ? now : new Date(Math.max(publishAtMs, now.getTime()));
  return deps.db.transaction(async (tx) => {
    // A lesson may be published before its course: readers see it once the course is live too.
    await lockItem(tx, itemId);
    await tx.query(`UPDATE content_items SET status = 'published', publish_at = $2, revision = revision + 1, updated_at = $3 WHERE id = $1`, [itemId, at, now]);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: at > now ? 'content.scheduled' : 'content.published',
      targetType: 'content_item',
      targetId: itemId.toString(),
      detail: { publishAt: at.toISOString() },
      requestId,
      at: now,
    });
    return detailOf(tx, itemId, now);
  });
}

export async function unpublishContent(deps: Pick<Deps, 'db' | 'now'>, staff: StaffSession, itemId: bigint, requestId?: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const item = await lockItem(tx, itemId);
    if (item.status !== 'published') return detailOf(tx, itemId, now);
    await tx.query(`UPDATE content_items SET status = 'unpublished', revision = revision + 1, updated_at = $2 WHERE id = $1`, [itemId, now]);
    await appendAudit(tx, { staffId: staff.staff.id, action: 'content.unpublished', targetType: 'content_item', targetId: itemId.toString(), requestId, at: now });
    return detailOf(tx, itemId, now);
  });
}

/** An image for content, through the uploads pipeline (cleaned, stored encrypted); public once uploaded. */
export async function uploadContentImage(deps: Pick<Deps, 'db' | 'now' | 'storage'>, staff: StaffSession, bytes: Uint8Array, requestId?: string) {
  const image = await cleanImage(bytes);
  const storageKey = `content-image/${randomUUID()}`;
  // The file first, then the row: a crash between leaves an orphan file, never a row without its file.
  await deps.storage.put(storageKey, image.bytes);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: bigint }>(
      `INSERT INTO content_images (storage_key, format, width, height, size_bytes, uploaded_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [storageKey, image.format, image.width, image.height, image.bytes.length, staff.staff.id, now],
    );
    await appendAudit(tx, { staffId: staff.staff.id, action: 'content.image_uploaded', targetType: 'content_image', targetId: row!.id.toString(), requestId, at: now });
    return { imageId: row!.id.toString(), path: `/home/content/images/${row!.id}`, width: image.width, height: image.height };
  });
}
