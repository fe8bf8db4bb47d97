import { MAX_IMAGE_BYTES, contentFieldLimits, contentKinds, helpCategories, plainTextProblems, type ContentProblem } from '@keel/domain';
import { z } from 'zod';
import { idSchema, localeSchema, pageQuerySchema, typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { validationMessages } from '../validation.ts';

/**
 * Content (issue 20, ADR 0044): platform news and announcements, industry news, help articles in
 * categories, courses with ordered lessons, the about page and home banners. Each item has a
 * translation per language; a reader sees their language, or English with `fallback: true` (the
 * page says no translation exists yet). Bodies are Markdown without HTML, checked by the same
 * rules here (the editor's form) and on the server. Published content is public and cacheable
 * (ETag); the language is part of the address (`lang`), so one address is one answer.
 */

export const contentKindSchema = z.enum(contentKinds);
export const helpCategorySchema = z.enum(helpCategories);
export const contentStatusSchema = z.enum(['draft', 'published', 'unpublished']);
/** What readers list: lessons are read through their course, the about page and banners by their own calls. */
export const listedContentKindSchema = z.enum(['announcement', 'industry_news', 'help', 'course']);

/** Each content problem as the stable English message of its validation rule (the server's answer and the forms' key). */
export const contentProblemMessages: Record<ContentProblem['problem'], string> = {
  html: validationMessages.contentHtml,
  script_url: validationMessages.contentScriptUrl,
  link_not_allowed: validationMessages.contentLinkNotAllowed,
  image_not_allowed: validationMessages.contentImageNotAllowed,
  heading_level: validationMessages.contentHeadingLevel,
  control_character: validationMessages.noControlCharacters,
  // Length is zod's own rule in forms; the server's check says it in plain words.
  too_long: 'too long',
  empty: validationMessages.required,
};

/** Adds each content problem of `problems` as an issue at its field. Length is zod's own rule. */
export function reportContentProblems(ctx: z.RefinementCtx, problems: ContentProblem[]) {
  for (const { field, problem } of problems) {
    if (problem === 'too_long' || problem === 'empty') continue;
    ctx.addIssue({ code: 'custom', path: [field], message: contentProblemMessages[problem] });
  }
}

/**
 * One language's words of an item: title and summary plain text, body Markdown (empty only for a
 * banner). The body's Markdown rules need a parser, kept out of the contracts so the apps' first
 * scripts do not carry it (ADR 0044): the server checks them (`@keel/domain/content-markdown`)
 * and so does the editor's form, with `reportContentProblems`.
 */
export const contentTranslationInputSchema = z
  .object({
    title: z.string().trim().min(1).max(contentFieldLimits.title),
    summary: z.string().trim().max(contentFieldLimits.summary).default(''),
    body: z.string().max(contentFieldLimits.body).default(''),
  })
  .superRefine((value, ctx) => {
    reportContentProblems(ctx, [
      ...plainTextProblems('title', value.title, contentFieldLimits.title, false),
      ...plainTextProblems('summary', value.summary, contentFieldLimits.summary, false),
    ]);
  });
export type ContentTranslationInput = z.input<typeof contentTranslationInputSchema>;

const marketSymbolSchema = z.string().regex(/^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/, validationMessages.marketSymbol);

/** The language-independent facts of an item, as content staff set them. */
export const contentItemSettingsSchema = z.object({
  category: helpCategorySchema.nullable().default(null).describe('help articles only (required there)'),
  parentId: idSchema.nullable().default(null).describe('lessons only: their course'),
  sortOrder: z.coerce.number().int().min(0).max(100_000).default(0),
  marketSymbols: z.array(marketSymbolSchema).max(10).default([]).describe('news: the markets it is about, linked from the article'),
  linkPath: z
    .string()
    .regex(/^\/[A-Za-z0-9/_?=&.-]{0,199}$/, validationMessages.contentLinkPath)
    .nullable()
    .default(null)
    .describe('banners only: the in-app page the banner opens'),
  sample: z.boolean().default(false).describe('industry news only: labelled as sample content wherever shown'),
});
export type ContentItemSettings = z.input<typeof contentItemSettingsSchema>;

const readerQuerySchema = z.object({ lang: localeSchema.default('en') });

export const contentSummarySchema = z.object({
  id: idSchema,
  kind: contentKindSchema,
  category: helpCategorySchema.nullable(),
  title: z.string(),
  summary: z.string(),
  language: localeSchema.describe('the language of the words shown'),
  fallback: z.boolean().describe('true when the reader’s language has no translation and English is shown'),
  sample: z.boolean(),
  marketSymbols: z.array(z.string()),
  linkPath: z.string().nullable(),
  publishedAtMs: z.number().int(),
  sortOrder: z.number().int(),
});
export type ContentSummary = z.infer<typeof contentSummarySchema>;

export const contentArticleSchema = contentSummarySchema.extend({
  body: z.string().describe('Markdown without HTML'),
  languages: z.array(localeSchema).describe('the languages this item is written in'),
  lessons: z.array(z.object({ id: idSchema, title: z.string(), sortOrder: z.number().int() })).describe('a course: its live lessons in order'),
  course: z
    .object({ id: idSchema, title: z.string(), previousLessonId: idSchema.nullable(), nextLessonId: idSchema.nullable() })
    .nullable()
    .describe('a lesson: its course and neighbours'),
});
export type ContentArticle = z.infer<typeof contentArticleSchema>;

export const listContentContract = defineContract({
  id: 'content.list',
  cacheable: { maxAgeSeconds: 60 },
  method: 'GET',
  path: '/home/content/items',
  summary:
    'Published content of one kind, newest first (help and courses in their order), paged, in the reader’s language or English. Help articles may be narrowed to a category. Public, cacheable (ETag).',
  caller: 'public',
  query: pageQuerySchema.extend(readerQuerySchema.shape).extend({ kind: listedContentKindSchema, category: helpCategorySchema.optional() }),
  data: z.object({ items: z.array(contentSummarySchema), total: z.number().int() }),
  errors: [],
});

export const getContentContract = defineContract({
  id: 'content.item',
  cacheable: { maxAgeSeconds: 60 },
  method: 'GET',
  path: '/home/content/items/:itemId',
  summary: 'One published item with its Markdown body; a course with its lessons, a lesson with its course and neighbours. Public, cacheable (ETag).',
  caller: 'public',
  params: z.object({ itemId: idSchema }),
  query: readerQuerySchema,
  data: contentArticleSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const getAboutContract = defineContract({
  id: 'content.about',
  cacheable: { maxAgeSeconds: 60 },
  method: 'GET',
  path: '/home/content/about',
  summary: 'The about page. Public, cacheable (ETag).',
  caller: 'public',
  query: readerQuerySchema,
  data: contentArticleSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const getContentHomeContract = defineContract({
  id: 'content.home',
  cacheable: { maxAgeSeconds: 60 },
  method: 'GET',
  path: '/home/content/home',
  summary: 'What the home page shows: the live banners in their order and the latest three announcements. Public, cacheable (ETag).',
  caller: 'public',
  query: readerQuerySchema,
  data: z.object({ banners: z.array(contentSummarySchema), announcements: z.array(contentSummarySchema) }),
  errors: [],
});

export const listHelpCategoriesContract = defineContract({
  id: 'content.helpCategories',
  cacheable: { maxAgeSeconds: 60 },
  method: 'GET',
  path: '/home/content/help/categories',
  summary: 'The help centre’s categories in order, with how many published articles each has. Public, cacheable (ETag).',
  caller: 'public',
  data: z.array(z.object({ category: helpCategorySchema, articles: z.number().int() })),
  errors: [],
});

export const searchHelpContract = defineContract({
  id: 'content.search',
  cacheable: { maxAgeSeconds: 60 },
  method: 'GET',
  path: '/home/content/help/search',
  summary:
    'Full-text search of the published help articles written in the reader’s language (PostgreSQL text search with that language’s configuration; Chinese and Japanese by two-character pieces), best match first. Public, cacheable (ETag).',
  caller: 'public',
  query: pageQuerySchema.extend(readerQuerySchema.shape).extend({ q: typedText(100).pipe(z.string().min(1)) }),
  data: z.object({ items: z.array(contentSummarySchema), total: z.number().int() }),
  errors: [],
});

export const getContentImageContract = defineContract({
  id: 'content.image',
  cacheable: { maxAgeSeconds: 31_536_000 },
  method: 'GET',
  path: '/home/content/images/:imageId',
  summary: 'An image of published content (cleaned by the uploads pipeline). Public, cached for good (an image never changes).',
  caller: 'public',
  params: z.object({ imageId: idSchema }),
  binaryAnswer: { description: 'the image (JPEG, PNG or GIF)' },
  data: z.unknown(),
  errors: ['RECORD_NOT_FOUND'],
});

// ---- Content staff ----

const contentRoles = ['content'] as const;

export const contentTranslationStateSchema = z.object({
  language: localeSchema,
  updatedAtMs: z.number().int(),
  stale: z.boolean().describe('older than the latest change of the English text: it may need revising'),
});

export const staffContentItemSchema = z.object({
  id: idSchema,
  kind: contentKindSchema,
  slug: z.string().nullable(),
  category: helpCategorySchema.nullable(),
  parentId: idSchema.nullable(),
  sortOrder: z.number().int(),
  marketSymbols: z.array(z.string()),
  linkPath: z.string().nullable(),
  sample: z.boolean(),
  status: contentStatusSchema,
  publishAtMs: z.number().int().nullable().describe('when it is (or was, or will be) visible; in the future = scheduled'),
  live: z.boolean().describe('readers see it now'),
  revision: z.number().int(),
  updatedAtMs: z.number().int(),
  title: z.string().describe('the English title'),
  translations: z.array(contentTranslationStateSchema),
  missingLanguages: z.array(localeSchema),
});
export type StaffContentItem = z.infer<typeof staffContentItemSchema>;

export const staffContentDetailSchema = staffContentItemSchema.extend({
  texts: z.array(z.object({ language: localeSchema, title: z.string(), summary: z.string(), body: z.string(), updatedAtMs: z.number().int() })),
});
export type StaffContentDetail = z.infer<typeof staffContentDetailSchema>;

export const listStaffContentContract = defineContract({
  id: 'admin.content.list',
  method: 'GET',
  path: '/home/admin/content/items',
  summary: 'Every content item of a kind (any status), newest change first, with its translation status per language.',
  caller: 'staff',
  staffRoles: contentRoles,
  query: pageQuerySchema.extend({ kind: contentKindSchema.optional(), status: contentStatusSchema.optional() }),
  data: z.object({ items: z.array(staffContentItemSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const getStaffContentContract = defineContract({
  id: 'admin.content.get',
  method: 'GET',
  path: '/home/admin/content/items/:itemId',
  summary: 'One item with every translation, for editing and preview.',
  caller: 'staff',
  staffRoles: contentRoles,
  params: z.object({ itemId: idSchema }),
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const createContentContract = defineContract({
  id: 'admin.content.create',
  method: 'POST',
  path: '/home/admin/content/items',
  summary: 'A new item, as a draft, with its English text (every item has English: it is what readers fall back to). Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  body: contentItemSettingsSchema.extend({ kind: contentKindSchema, english: contentTranslationInputSchema }),
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const updateContentContract = defineContract({
  id: 'admin.content.update',
  method: 'PUT',
  path: '/home/admin/content/items/:itemId',
  summary: 'Changes an item’s language-independent settings (category, course, order, markets, banner link, sample label). Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  params: z.object({ itemId: idSchema }),
  body: contentItemSettingsSchema,
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const saveContentTranslationContract = defineContract({
  id: 'admin.content.translate',
  method: 'PUT',
  path: '/home/admin/content/items/:itemId/translations/:language',
  summary: 'Writes one language’s title, summary and Markdown body (HTML, code-running links and outside images are refused). Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  params: z.object({ itemId: idSchema, language: localeSchema }),
  body: contentTranslationInputSchema,
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const deleteContentTranslationContract = defineContract({
  id: 'admin.content.untranslate',
  method: 'DELETE',
  path: '/home/admin/content/items/:itemId/translations/:language',
  summary: 'Removes one language’s text (readers of that language then see English with the note). English cannot be removed. Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  params: z.object({ itemId: idSchema, language: localeSchema.exclude(['en']) }),
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const publishContentContract = defineContract({
  id: 'admin.content.publish',
  method: 'POST',
  path: '/home/admin/content/items/:itemId/publish',
  summary: 'Publishes an item now, or at `publishAtMs` (scheduled: readers see it from then on). Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  params: z.object({ itemId: idSchema }),
  body: z.object({ publishAtMs: z.number().int().min(0).max(8_640_000_000_000_000).nullable().default(null) }),
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const unpublishContentContract = defineContract({
  id: 'admin.content.unpublish',
  method: 'POST',
  path: '/home/admin/content/items/:itemId/unpublish',
  summary: 'Takes an item off the public pages (a scheduled one is cancelled). Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  params: z.object({ itemId: idSchema }),
  data: staffContentDetailSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const uploadContentImageContract = defineContract({
  id: 'admin.content.image',
  method: 'POST',
  path: '/home/admin/content/images',
  summary:
    'Uploads an image for content: decoded, re-encoded without metadata and stored encrypted, like every upload. Answers the path to write in Markdown (`![text](path)`). The image is public. Audited.',
  caller: 'staff',
  staffRoles: contentRoles,
  binaryBody: { maxBytes: MAX_IMAGE_BYTES, description: 'a JPEG, PNG or GIF image' },
  data: z.object({ imageId: idSchema, path: z.string(), width: z.number().int(), height: z.number().int() }),
  errors: ['PERMISSION_DENIED', 'WRONG_IMAGE_FORMAT', 'FILE_SIZE_MISMATCH', 'PAYLOAD_TOO_LARGE'],
});

export const contentContracts = [
  listContentContract,
  getContentContract,
  getAboutContract,
  getContentHomeContract,
  listHelpCategoriesContract,
  searchHelpContract,
  getContentImageContract,
  listStaffContentContract,
  getStaffContentContract,
  createContentContract,
  updateContentContract,
  saveContentTranslationContract,
  deleteContentTranslationContract,
  publishContentContract,
  unpublishContentContract,
  uploadContentImageContract,
] as const;
