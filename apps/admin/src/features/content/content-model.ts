import {
  ApiError,
  type contentItemSettingsSchema,
  errorCatalogue,
  type LocaleCode,
  localeCodes,
  ruleOfMessage,
  type StaffContentItem,
  type ValidationRule,
  validationMessages,
} from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { z } from 'zod';
import { fieldMessage, problemMessage } from '../../shared/form-messages.ts';

// The content editor's rules beside the server's (issue 20, ADR 0044), kept apart from the pages so
// they are tested without drawing them: what status an item shows, each language's state, which
// settings a kind has, the schedule's local time, and where a refusal of the server belongs.

export type ContentKind = StaffContentItem['kind'];

/** What the list and the editor call an item's state: a publication time still to come is "scheduled". */
export type ContentDisplayStatus = 'draft' | 'scheduled' | 'published' | 'unpublished';

export function displayStatus(item: Pick<StaffContentItem, 'status' | 'publishAtMs'>, nowMs: number): ContentDisplayStatus {
  if (item.status === 'published' && item.publishAtMs !== null && item.publishAtMs > nowMs) return 'scheduled';
  return item.status;
}

/** One language's words of an item: written and current, written before English last changed, or not written. */
export type TranslationState = 'ok' | 'stale' | 'missing';

/** Every language's state in the switcher's order (English first, always there: it is the source). */
export function translationStates(item: Pick<StaffContentItem, 'translations' | 'missingLanguages'>): { language: LocaleCode; state: TranslationState }[] {
  return localeCodes.map((language) => {
    if (item.missingLanguages.includes(language)) return { language, state: 'missing' };
    const written = item.translations.find((each) => each.language === language);
    return { language, state: written?.stale ? 'stale' : 'ok' };
  });
}

/** The settings a kind has (the server refuses the others): shown in the forms only for that kind. */
export type SettingName = 'category' | 'parentId' | 'sortOrder' | 'marketSymbols' | 'linkPath' | 'sample';

const settingsByKind: Record<ContentKind, readonly SettingName[]> = {
  announcement: ['marketSymbols'],
  industry_news: ['marketSymbols', 'sample'],
  help: ['category', 'sortOrder'],
  course: ['sortOrder'],
  lesson: ['parentId', 'sortOrder'],
  about: [],
  banner: ['linkPath', 'sortOrder'],
};

export function settingsOf(kind: ContentKind): readonly SettingName[] {
  return settingsByKind[kind];
}

/** The settings as the form holds them: the contract's settings, with the market symbols as one line of text. */
export type SettingsFormValues = Omit<z.input<typeof contentItemSettingsSchema>, 'marketSymbols'> & { marketSymbols: string };

/** "btc/usdt, ETH/USDT  sol/usdt" → ['BTC/USDT', 'ETH/USDT', 'SOL/USDT']: commas or spaces apart, in capitals. */
export function splitSymbols(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((symbol) => symbol.trim().toUpperCase())
    .filter((symbol) => symbol !== '');
}

/** An item's settings as the form starts from them. */
export function settingsFormValues(item?: Pick<StaffContentItem, 'category' | 'parentId' | 'sortOrder' | 'marketSymbols' | 'linkPath' | 'sample'>): SettingsFormValues {
  return {
    category: item?.category ?? null,
    parentId: item?.parentId ?? null,
    sortOrder: item?.sortOrder ?? 0,
    marketSymbols: (item?.marketSymbols ?? []).join(', '),
    linkPath: item?.linkPath ?? null,
    sample: item?.sample ?? false,
  };
}

/**
 * The settings sent for a kind: what the kind has as checked, everything else at its default, so a
 * value left behind by switching the kind in the form never reaches the server (which refuses it).
 */
export type ContentSettings = z.output<typeof contentItemSettingsSchema>;

export function settingsForKind(kind: ContentKind, settings: ContentSettings): ContentSettings {
  const has = new Set(settingsOf(kind));
  return {
    category: has.has('category') ? settings.category : null,
    parentId: has.has('parentId') ? settings.parentId : null,
    sortOrder: has.has('sortOrder') ? settings.sortOrder : 0,
    marketSymbols: has.has('marketSymbols') ? settings.marketSymbols : [],
    linkPath: has.has('linkPath') ? settings.linkPath : null,
    sample: has.has('sample') ? settings.sample : false,
  };
}

// ---- The schedule: a datetime-local field is the member's own clock ----

const pad = (n: number, size = 2) => String(n).padStart(size, '0');

/**
 * A `datetime-local` value ("2026-12-01T09:30") read in the browser's time zone, as ms since the
 * epoch; null for anything else (an empty or half-typed field). A wall time that does not exist
 * there (skipped by a clock change) is refused too, rather than moved.
 */
export function localInputToEpochMs(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day || date.getHours() !== hour || date.getMinutes() !== minute) return null;
  return date.getTime();
}

/** A time as a `datetime-local` value in the browser's time zone (minutes). */
export function epochMsToLocalInput(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A time in UTC as the back-office writes times (year/month/day hour:minute), for the schedule's second reading. */
export function formatUtc(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getUTCFullYear(), 4)}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/** The same time on the member's clock (year/month/day hour:minute). */
export function formatLocal(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getFullYear(), 4)}/${pad(date.getMonth() + 1)}/${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The browser's time zone by name ("Europe/Berlin"), or its offset from UTC when it has none. */
export function localTimeZone(at = Date.now()): string {
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (name) return name;
  const offset = -new Date(at).getTimezoneOffset();
  return `UTC${offset < 0 ? '−' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** Why a schedule cannot be sent yet, or null when it can: a time must be given and still to come. */
export function scheduleProblem(value: string, nowMs: number): 'missing' | 'past' | null {
  const at = localInputToEpochMs(value);
  if (at === null) return 'missing';
  return at <= nowMs ? 'past' : null;
}

// ---- Writing Markdown ----

/** `text` with `insertion` in place of the selection from `start` to `end`, and where the cursor goes after it. */
export function insertAtCursor(text: string, start: number, end: number, insertion: string): { text: string; cursor: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: `${text.slice(0, from)}${insertion}${text.slice(to)}`, cursor: from + insertion.length };
}

/** The Markdown of an uploaded image on a line of its own, its text without what would end it early. */
export function imageMarkdown(alt: string, path: string, before: string): string {
  const text = alt.replace(/[[\]\\\r\n]/g, ' ').trim();
  const start = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  return `${start}![${text}](${path})\n\n`;
}

/** An uploaded file's name without its extension, as the image's starting alternative text. */
export function altFromFileName(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/[_-]+/g, ' ').trim();
}

// ---- The server's refusals, on the fields they name ----

/** The content rules' own sentences (the rest are the back-office's usual ones). */
const contentRuleKeys: Partial<Record<ValidationRule, MessageKey>> = {
  contentHtml: 'admin.content.rule.contentHtml',
  contentScriptUrl: 'admin.content.rule.contentScriptUrl',
  contentLinkNotAllowed: 'admin.content.rule.contentLinkNotAllowed',
  contentImageNotAllowed: 'admin.content.rule.contentImageNotAllowed',
  contentHeadingLevel: 'admin.content.rule.contentHeadingLevel',
  contentSlug: 'admin.content.rule.contentSlug',
  contentLinkPath: 'admin.content.rule.contentLinkPath',
  marketSymbol: 'admin.content.rule.marketSymbol',
  noDuplicateSymbols: 'admin.content.rule.noDuplicateSymbols',
};

/** The server's words for a setting that does not fit the kind, or a course that is not one. */
const settingMessages: Record<string, MessageKey> = {
  'help articles only': 'admin.content.problem.notForKind',
  'lessons only': 'admin.content.problem.notForKind',
  'banners only': 'admin.content.problem.notForKind',
  'news only': 'admin.content.problem.notForKind',
  'industry news only': 'admin.content.problem.notForKind',
  'must be a course': 'admin.content.problem.notACourse',
  'too long': 'admin.content.problem.tooLong',
};

/** The form error (a catalogue key as text) for a message of the contracts or the server. */
export function contentMessage(message: string): string {
  const own = settingMessages[message];
  if (own) return fieldMessage(own);
  const rule = ruleOfMessage(message);
  const key = rule && contentRuleKeys[rule];
  if (key) return fieldMessage(key);
  return problemMessage({ rule: rule ?? 'invalid' });
}

/** A rule named by the contracts' English message, as `contentMessage` says it. */
export const contentRuleMessage = (rule: keyof typeof validationMessages) => contentMessage(validationMessages[rule]);

/** A refusal put on a form field: the field's name in the form, and the error's text (a catalogue key). */
export interface PlacedRefusal {
  field: string;
  message: string;
}

/**
 * Where a "parameter error" belongs in a form: each `data.fields` entry whose field the form has
 * (`fields`), its name read without the request part (`body.`) and, where the form nests the
 * words (`english.title` in "new item"), found under that prefix too. An answer naming no field
 * the form shows gives nothing (the catalogue's message stands alone).
 */
export function placeRefusal(error: unknown, fields: readonly string[], nested?: string): PlacedRefusal[] {
  if (!(error instanceof ApiError) || error.message !== errorCatalogue.PARAMETER_ERROR.msg) return [];
  const entries = (error.data as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(entries)) return [];
  const placed: PlacedRefusal[] = [];
  for (const entry of entries as { field?: unknown; message?: unknown }[]) {
    if (typeof entry.field !== 'string' || typeof entry.message !== 'string') continue;
    const path = entry.field.replace(/^body\./, '').replace(/\.\d+$/, '');
    const field = fields.includes(path) ? path : nested && fields.includes(`${nested}.${path}`) ? `${nested}.${path}` : null;
    if (field && !placed.some((each) => each.field === field)) placed.push({ field, message: contentMessage(entry.message) });
  }
  return placed;
}
