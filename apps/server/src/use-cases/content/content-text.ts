import { type ContentKind, type ContentLanguage, searchableText, searchConfiguration } from '@keel/domain';
import { markdownPlainText, translationProblems } from '@keel/domain/content-markdown';
import { AppError, contentProblemMessages } from '@keel/contracts';
import type { Queryable } from '../../persistence/db.ts';

/** One language's words of an item. */
export interface ContentText {
  title: string;
  summary: string;
  body: string;
}


/**
 * Refuses a translation with any problem of the domain's rules, naming each field. The contract's
 * schema checks the same before the use case runs; this is the check that holds for every writer
 * (the seed included), and the one that knows the kind (a banner's body may be empty).
 */
export function assertPublishableText(kind: ContentKind, text: ContentText): void {
  const problems = translationProblems(kind, text);
  if (problems.length > 0) {
    throw new AppError('PARAMETER_ERROR', { fields: problems.map((p) => ({ field: p.field, message: contentProblemMessages[p.problem] })) });
  }
}

/**
 * Writes (or replaces) one language's text with its search vector: the title weighs more than the
 * rest; Chinese and Japanese text is cut into two-character pieces first (ADR 0044).
 */
export async function writeTranslation(
  tx: Queryable,
  itemId: bigint,
  language: ContentLanguage,
  text: ContentText,
  staffId: bigint | null,
  at: Date,
): Promise<void> {
  const config = searchConfiguration(language);
  const titleWords = searchableText(language, text.title);
  const otherWords = searchableText(language, `${text.summary} ${text.body.trim() === '' ? '' : markdownPlainText(text.body)}`);
  await tx.query(
    `INSERT INTO content_translations (item_id, language, title, summary, body, search_vector, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5,
             setweight(to_tsvector($6::regconfig, $7), 'A') || setweight(to_tsvector($6::regconfig, $8), 'B'), $9, $10)
     ON CONFLICT (item_id, language) DO UPDATE
       SET title = EXCLUDED.title, summary = EXCLUDED.summary, body = EXCLUDED.body,
           search_vector = EXCLUDED.search_vector, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [itemId, language, text.title, text.summary, text.body, config, titleWords, otherWords, staffId, at],
  );
}
