import {
  type ContentKind,
  type ContentLanguage,
  contentLanguageChain,
  type HelpCategory,
  helpCategories,
  searchableText,
  searchConfiguration,
} from '@keel/domain';
import { AppError, type ContentArticle, type ContentSummary } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';

// What readers see (issue 20, ADR 0044): published items whose time has come, each in the
// reader's language, a formal variant's base language, or English (marked as a fallback). Every
// read is public; the route adds an ETag, so a reader's browser asks again cheaply.

interface SummaryRow {
  id: bigint;
  kind: ContentKind;
  category: HelpCategory | null;
  sample: boolean;
  market_symbols: string[];
  link_path: string | null;
  publish_at: Date;
  sort_order: number;
  language: ContentLanguage;
  title: string;
  summary: string;
}

const LIVE = `i.status = 'published' AND i.publish_at <= $1`;

/**
 * Live items with the reader's translation picked: one row per item, the first language of the
 * chain it has (`array_position` orders the chain). `where` is added to the live condition; its
 * parameters follow $1 (now) and $2 (the chain).
 */
function pickedSql(where: string, columns = 'i.id, i.kind, i.category, i.sample, i.market_symbols, i.link_path, i.publish_at, i.sort_order') {
  return `SELECT DISTINCT ON (i.id) ${columns}, t.language, t.title, t.summary
            FROM content_items i
            JOIN content_translations t ON t.item_id = i.id AND t.language = ANY($2::text[])
           WHERE ${LIVE} AND ${where}
           ORDER BY i.id, array_position($2::text[], t.language)`;
}

function summaryOf(row: SummaryRow, reader: ContentLanguage): ContentSummary {
  return {
    id: row.id.toString(),
    kind: row.kind,
    category: row.category,
    title: row.title,
    summary: row.summary,
    language: row.language,
    fallback: row.language === 'en' && reader !== 'en',
    sample: row.sample,
    marketSymbols: row.market_symbols,
    linkPath: row.link_path,
    publishedAtMs: row.publish_at.getTime(),
    sortOrder: row.sort_order,
  };
}

/** News newest first; help, courses, lessons and banners in their order. */
function orderOf(kind: ContentKind): string {
  return kind === 'announcement' || kind === 'industry_news' ? 'publish_at DESC, id DESC' : 'sort_order, id';
}

export async function listContent(
  deps: Pick<Deps, 'db' | 'now'>,
  query: { kind: ContentKind; category?: HelpCategory | undefined; lang: ContentLanguage; page: number; pageSize: number },
) {
  const chain = contentLanguageChain(query.lang);
  const params: unknown[] = [deps.now(), chain, query.kind];
  let where = 'i.kind = $3';
  if (query.category) {
    params.push(query.category);
    where += ` AND i.category = $${params.length}`;
  }
  const rows = await deps.db.query<SummaryRow & { total: string }>(
    `SELECT picked.*, count(*) OVER () AS total FROM (${pickedSql(where)}) picked
      ORDER BY ${orderOf(query.kind)}
      LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    params,
  );
  const total = rows[0] ? Number(rows[0].total) : await countLive(deps.db, params, where);
  return { items: rows.map((row) => summaryOf(row, query.lang)), total };
}

async function countLive(db: Queryable, params: unknown[], where: string): Promise<number> {
  const [row] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${pickedSql(where)}) picked`, params);
  return Number(row?.n ?? 0);
}

/** One live item with its body, lessons or course; "not found" for anything not live. */
export async function getContent(deps: Pick<Deps, 'db' | 'now'>, itemId: bigint, lang: ContentLanguage): Promise<ContentArticle> {
  return articleWhere(deps, 'i.id = $3', [itemId], lang);
}

/** The about page: the live `about` item (the first in order, should staff ever write two). */
export async function getAbout(deps: Pick<Deps, 'db' | 'now'>, lang: ContentLanguage): Promise<ContentArticle> {
  return articleWhere(deps, `i.id = (SELECT id FROM content_items i WHERE i.kind = 'about' AND ${LIVE} ORDER BY sort_order, id LIMIT 1)`, [], lang);
}

async function articleWhere(deps: Pick<Deps, 'db' | 'now'>, where: string, extra: unknown[], lang: ContentLanguage): Promise<ContentArticle> {
  const now = deps.now();
  const chain = contentLanguageChain(lang);
  const [row] = await deps.db.query<SummaryRow & { body: string; parent_id: bigint | null }>(
    pickedSql(where, 'i.id, i.kind, i.category, i.sample, i.market_symbols, i.link_path, i.publish_at, i.sort_order, i.parent_id, t.body'),
    [now, chain, ...extra],
  );
  if (!row || row.kind === 'banner') throw new AppError('RECORD_NOT_FOUND');
  const languages = await deps.db.query<{ language: ContentLanguage }>(
    'SELECT language FROM content_translations WHERE item_id = $1 ORDER BY language',
    [row.id],
  );
  let lessons: ContentArticle['lessons'] = [];
  let course: ContentArticle['course'] = null;
  if (row.kind === 'course') {
    lessons = (await lessonsOf(deps.db, row.id, now, chain)).map((l) => ({ id: l.id.toString(), title: l.title, sortOrder: l.sort_order }));
  }
  if (row.kind === 'lesson' && row.parent_id !== null) {
    const [parent] = await deps.db.query<SummaryRow>(pickedSql('i.id = $3'), [now, chain, row.parent_id]);
    // A lesson of a course that is not live is not live either.
    if (!parent) throw new AppError('RECORD_NOT_FOUND');
    const siblings = await lessonsOf(deps.db, row.parent_id, now, chain);
    const at = siblings.findIndex((l) => l.id === row.id);
    course = {
      id: parent.id.toString(),
      title: parent.title,
      previousLessonId: at > 0 ? siblings[at - 1]!.id.toString() : null,
      nextLessonId: at >= 0 && at + 1 < siblings.length ? siblings[at + 1]!.id.toString() : null,
    };
  }
  return {
    ...summaryOf(row, lang),
    body: row.body,
    languages: languages.map((l) => l.language),
    lessons,
    course,
  };
}

async function lessonsOf(db: Queryable, courseId: bigint, now: Date, chain: string[]) {
  const rows = await db.query<SummaryRow>(`SELECT * FROM (${pickedSql(`i.kind = 'lesson' AND i.parent_id = $3`)}) picked ORDER BY sort_order, id`, [
    now,
    chain,
    courseId,
  ]);
  return rows;
}

/** Home: the live banners in order and the three latest announcements. */
export async function contentHome(deps: Pick<Deps, 'db' | 'now'>, lang: ContentLanguage) {
  const chain = contentLanguageChain(lang);
  const now = deps.now();
  const banners = await deps.db.query<SummaryRow>(`SELECT * FROM (${pickedSql(`i.kind = 'banner'`)}) picked ORDER BY sort_order, id LIMIT 10`, [now, chain]);
  const announcements = await deps.db.query<SummaryRow>(
    `SELECT * FROM (${pickedSql(`i.kind = 'announcement'`)}) picked ORDER BY publish_at DESC, id DESC LIMIT 3`,
    [now, chain],
  );
  return { banners: banners.map((r) => summaryOf(r, lang)), announcements: announcements.map((r) => summaryOf(r, lang)) };
}

/** Every help category in order, with its number of live articles (zero included). */
export async function helpCategoryCounts(deps: Pick<Deps, 'db' | 'now'>) {
  const rows = await deps.db.query<{ category: HelpCategory; n: string }>(
    `SELECT i.category, count(*) AS n FROM content_items i WHERE i.kind = 'help' AND ${LIVE} GROUP BY i.category`,
    [deps.now()],
  );
  const counts = new Map(rows.map((r) => [r.category, Number(r.n)]));
  return helpCategories.map((category) => ({ category, articles: counts.get(category) ?? 0 }));
}

/**
 * Help articles written in the reader's language (and, for a formal variant, its base language)
 * that match the words, best first. Never English for another reader: a search in Arabic finds
 * Arabic articles. The query is prepared like the documents (`searchableText`), so Chinese and
 * Japanese match by two-character pieces.
 */
export async function searchHelp(
  deps: Pick<Deps, 'db' | 'now'>,
  query: { q: string; lang: ContentLanguage; page: number; pageSize: number },
) {
  const languages = contentLanguageChain(query.lang).filter((l) => l !== 'en' || query.lang === 'en');
  const rows = await deps.db.query<SummaryRow & { rank: number }>(
    `SELECT i.id, i.kind, i.category, i.sample, i.market_symbols, i.link_path, i.publish_at, i.sort_order,
            t.language, t.title, t.summary, ts_rank(t.search_vector, q) AS rank
       FROM content_items i
       JOIN content_translations t ON t.item_id = i.id AND t.language = ANY($2::text[])
       CROSS JOIN plainto_tsquery($3::regconfig, $4) q
      WHERE ${LIVE} AND i.kind = 'help' AND t.search_vector @@ q`,
    [deps.now(), languages, searchConfiguration(query.lang), searchableText(query.lang, query.q)],
  );
  // One row per article: a formal variant's own text before its base language's.
  const best = new Map<bigint, SummaryRow & { rank: number }>();
  for (const row of rows) {
    const kept = best.get(row.id);
    if (!kept || languages.indexOf(row.language) < languages.indexOf(kept.language)) best.set(row.id, row);
  }
  const ranked = [...best.values()].sort((a, b) => Number(b.rank) - Number(a.rank) || (a.id < b.id ? -1 : 1));
  const page = ranked.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
  return { items: page.map((row) => summaryOf(row, query.lang)), total: ranked.length };
}

/** A content image's bytes (public: images are uploaded for published pages). */
export async function readContentImage(deps: Pick<Deps, 'db' | 'storage'>, imageId: bigint) {
  const [row] = await deps.db.query<{ storage_key: string; format: 'jpeg' | 'png' | 'gif' }>(
    'SELECT storage_key, format FROM content_images WHERE id = $1',
    [imageId],
  );
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  const bytes = await deps.storage.get(row.storage_key);
  if (!bytes) throw new AppError('RECORD_NOT_FOUND');
  return { bytes, mediaType: `image/${row.format}` };
}
