/**
 * Content (issue 20, ADR 0044): platform news, industry news, help articles, courses and their
 * lessons, the about page and home banners. Each item has a translation per language; a reader
 * sees their language or, failing that, English with a note. These are the pure rules: which text
 * is safe to publish, which language a reader is shown, and how text is made searchable.
 */

export const contentKinds = ['announcement', 'industry_news', 'help', 'course', 'lesson', 'about', 'banner'] as const;
export type ContentKind = (typeof contentKinds)[number];

/** The help centre's categories, in the order the help centre lists them. */
export const helpCategories = ['getting_started', 'account_security', 'wallet', 'trading', 'earn_loans', 'fees_limits'] as const;
export type HelpCategory = (typeof helpCategories)[number];

export const contentLanguages = ['en', 'de', 'es', 'fr', 'fr-pro', 'it', 'it-pro', 'ru', 'zh-Hans', 'zh-Hant', 'ja', 'vi', 'ar'] as const;
export type ContentLanguage = (typeof contentLanguages)[number];

/** Bounds of each translated field (characters). */
export const contentFieldLimits = { title: 120, summary: 300, body: 50_000 } as const;

/**
 * The languages tried for a reader, in order: their own, the base language of a formal variant,
 * then English, which every published item has (publishing needs it).
 */
export function contentLanguageChain(language: ContentLanguage): ContentLanguage[] {
  if (language === 'fr-pro') return ['fr-pro', 'fr', 'en'];
  if (language === 'it-pro') return ['it-pro', 'it', 'en'];
  if (language === 'en') return ['en'];
  return [language, 'en'];
}

/**
 * Which of the available translations a reader sees, and whether it is a fallback (not the
 * reader's language or its base language): the page then says no translation exists yet.
 */
export function pickTranslation(
  reader: ContentLanguage,
  available: readonly ContentLanguage[],
): { language: ContentLanguage; fallback: boolean } | undefined {
  const chain = contentLanguageChain(reader);
  const found = chain.find((language) => available.includes(language));
  if (found === undefined) return undefined;
  return { language: found, fallback: found === 'en' && reader !== 'en' };
}

/**
 * The PostgreSQL text-search configuration of each language: the stemming one where PostgreSQL
 * ships it (PGlite ships the same ones), `simple` otherwise. Chinese and Japanese are written
 * without spaces, so their text is cut into overlapping two-character pieces first (see
 * `searchableText`), and `simple` then indexes the pieces.
 */
export function searchConfiguration(language: ContentLanguage): string {
  switch (language) {
    case 'en':
      return 'english';
    case 'de':
      return 'german';
    case 'es':
      return 'spanish';
    case 'fr':
    case 'fr-pro':
      return 'french';
    case 'it':
    case 'it-pro':
      return 'italian';
    case 'ru':
      return 'russian';
    case 'ar':
      return 'arabic';
    default:
      return 'simple';
  }
}

const hanOrKanaRun = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+/gu;

/**
 * The text handed to `to_tsvector` / `plainto_tsquery`. For Chinese and Japanese, every run of
 * Han, Hiragana or Katakana characters becomes its overlapping two-character pieces (a run of one
 * stays itself), so "提现规则" is found by "提现" and by "规则"; other text is kept as it is.
 * The same function prepares the documents and the queries, so both sides are cut the same way.
 */
export function searchableText(language: ContentLanguage, text: string): string {
  if (language !== 'zh-Hans' && language !== 'zh-Hant' && language !== 'ja') return text;
  return text.replace(hanOrKanaRun, (run) => {
    const chars = [...run];
    if (chars.length === 1) return ` ${run} `;
    const pieces: string[] = [];
    for (let i = 0; i + 1 < chars.length; i++) pieces.push(chars[i]! + chars[i + 1]!);
    return ` ${pieces.join(' ')} `;
  });
}

export interface ContentProblem {
  field: string;
  problem: 'html' | 'script_url' | 'link_not_allowed' | 'image_not_allowed' | 'heading_level' | 'control_character' | 'too_long' | 'empty';
}

/** Characters a text may not hold: controls other than tab and line breaks, and bidi overrides. */
export const contentControlCharacters = /(?![\t\n\r])[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
/** Something a browser could read as a tag or comment if the text were ever put into HTML. */
const tagLike = /<\s*[a-zA-Z!/?]/;
/** A URL scheme that runs or embeds code. Checked after removing what browsers ignore in a scheme. */
export const contentScriptScheme = /^(javascript|vbscript|data|file):/i;

export function contentUrlScheme(url: string): string {
  // Browsers drop whitespace and control characters inside a scheme ("java\tscript:").
  return url.replace(/[\p{Cc} ]/gu, '').toLowerCase();
}

/** Links may point inside the app (`/path`), to https/http pages or to an e-mail address. */
export function contentLinkAllowed(url: string): boolean {
  const clean = contentUrlScheme(url);
  if (contentScriptScheme.test(clean)) return false;
  if (clean.startsWith('//')) return false;
  return clean.startsWith('/') || clean.startsWith('https://') || clean.startsWith('http://') || clean.startsWith('mailto:') || clean.startsWith('#');
}

/** Images only from Keel's own content images (uploaded by content staff, cleaned by the pipeline). */
export const contentImagePath = /^\/home\/content\/images\/[1-9][0-9]{0,18}$/;

/** The problems of a plain-text field (title, summary): no markup, no code, within its bound. */
export function plainTextProblems(field: string, text: string, maxLength: number, required: boolean): ContentProblem[] {
  const problems: ContentProblem[] = [];
  if (required && text.trim() === '') problems.push({ field, problem: 'empty' });
  if ([...text].length > maxLength) problems.push({ field, problem: 'too_long' });
  if (contentControlCharacters.test(text)) problems.push({ field, problem: 'control_character' });
  if (tagLike.test(text)) problems.push({ field, problem: 'html' });
  if (/(javascript|vbscript)\s*:/i.test(text)) problems.push({ field, problem: 'script_url' });
  return problems;
}

/**
 * Whether an item is visible to readers at `nowMs`: published, and its publication time (a
 * scheduled one included) has come.
 */
export function isLive(item: { status: 'draft' | 'published' | 'unpublished'; publishAtMs: number | null }, nowMs: number): boolean {
  return item.status === 'published' && item.publishAtMs !== null && item.publishAtMs <= nowMs;
}
