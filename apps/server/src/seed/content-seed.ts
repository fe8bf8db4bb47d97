import { existsSync, readFileSync } from 'node:fs';
import { type ContentKind, type ContentLanguage, contentLanguages, type HelpCategory } from '@keel/domain';
import type { Queryable } from '../persistence/db.ts';
import { assertPublishableText, type ContentText, writeTranslation } from '../use-cases/content/content-text.ts';

/**
 * The demo content (issue 20): help articles that explain Keel's own rules, a course, the about
 * page, true announcements, banners, and industry news labelled as sample content. The words live
 * in `seed/content/<language>.json` (one file per language, keyed by slug), the language-free facts
 * in `seed/content/items.json`. Written as published, by nobody (staff id null), once: an item
 * whose slug exists is left as content staff may have edited it.
 */

export interface SeedContentItem {
  slug: string;
  kind: ContentKind;
  category?: HelpCategory;
  sortOrder?: number;
  parent?: string;
  marketSymbols?: string[];
  linkPath?: string;
  sample?: boolean;
}

const folder = new URL('./content/', import.meta.url);

export function demoContentItems(): SeedContentItem[] {
  return JSON.parse(readFileSync(new URL('items.json', folder), 'utf8')) as SeedContentItem[];
}

/** The demo texts of one language by slug; empty when the language has no file. */
export function demoContentTexts(language: ContentLanguage): Record<string, ContentText> {
  const file = new URL(`${language}.json`, folder);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ContentText>;
}

export async function seedDemoContent(tx: Queryable, now: Date): Promise<number> {
  const items = demoContentItems();
  const texts = new Map(contentLanguages.map((language) => [language, demoContentTexts(language)]));
  const ids = new Map<string, bigint>();
  let written = 0;
  // Courses before their lessons: a lesson names its course by slug.
  const ordered = [...items].sort((a, b) => Number(a.kind === 'lesson') - Number(b.kind === 'lesson'));
  for (const item of ordered) {
    const parentId = item.parent ? (ids.get(item.parent) ?? null) : null;
    if (item.parent && parentId === null) throw new Error(`demo content: ${item.slug} names the unknown course ${item.parent}`);
    const [row] = await tx.query<{ id: bigint }>(
      `INSERT INTO content_items (kind, slug, category, parent_id, sort_order, market_symbols, link_path, sample, status, publish_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'published', $9, $9, $9)
       ON CONFLICT (slug) DO NOTHING RETURNING id`,
      [item.kind, item.slug, item.category ?? null, parentId, item.sortOrder ?? 0, item.marketSymbols ?? [], item.linkPath ?? null, item.sample ?? false, now],
    );
    if (!row) {
      const [existing] = await tx.query<{ id: bigint }>('SELECT id FROM content_items WHERE slug = $1', [item.slug]);
      ids.set(item.slug, existing!.id);
      continue;
    }
    ids.set(item.slug, row.id);
    written++;
    for (const language of contentLanguages) {
      const text = texts.get(language)?.[item.slug];
      if (!text) {
        if (language === 'en') throw new Error(`demo content: ${item.slug} has no English text`);
        continue;
      }
      assertPublishableText(item.kind, text);
      await writeTranslation(tx, row.id, language, text, null, now);
    }
  }
  return written;
}
