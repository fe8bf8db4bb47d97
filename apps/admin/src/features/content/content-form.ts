import { zodResolver } from '@hookform/resolvers/zod';
import { contentItemSettingsSchema, contentTranslationInputSchema, createContentContract, reportContentProblems } from '@keel/contracts';
import { contentFieldLimits } from '@keel/domain';
import { markdownProblems } from '@keel/domain/content-markdown';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';
import { issueMessage, readFieldMessage } from '../../shared/form-messages.ts';
import { type ContentKind, contentMessage, contentRuleMessage, splitSymbols } from './content-model.ts';

// The content forms are checked by the contracts' own schemas (`contentItemSettingsSchema`,
// `contentTranslationInputSchema`: the sanitiser's rules — no HTML, no code-running link, images
// only from Keel's content images, headings ## and ###), so an editor meets the server's refusals
// before sending, in words: each content rule has its own `admin.content.rule.*` sentence.

/** Market symbols are typed as one line ("BTC/USDT, ETH/USDT") and checked as the contract's list. */
const symbolsField = z.string().transform(splitSymbols).pipe(contentItemSettingsSchema.shape.marketSymbols.unwrap());

/** The settings form: the contract's settings with the symbols as text. */
export const settingsFormSchema = contentItemSettingsSchema.extend({ marketSymbols: symbolsField });

/** A translation for a kind: the contract's rules, and a body unless the item is a banner (the server asks the same). */
export function translationSchemaFor(kind: ContentKind) {
  return contentTranslationInputSchema.superRefine((value, ctx) => {
    if (kind !== 'banner' && value.body.trim() === '') ctx.addIssue({ code: 'custom', path: ['body'], message: contentRuleMessage('required') });
    // The body's Markdown rules, which the contract leaves to the server and to this form (ADR 0044).
    if (value.body.trim() !== '') reportContentProblems(ctx, markdownProblems('body', value.body, contentFieldLimits.body));
  });
}

/** "New item": kind, the settings and the English words, as `createContentContract` takes them. */
export function createFormSchema(kind: ContentKind) {
  const body = createContentContract.body!;
  return body.extend({ marketSymbols: symbolsField, english: translationSchemaFor(kind) });
}

/** Replaces every error's text by a catalogue key (a content rule's own, or the back-office's usual one). */
export function localizeContentErrors(errors: FieldErrors): void {
  for (const value of Object.values(errors)) {
    if (!value || typeof value !== 'object') continue;
    const error = value as FieldError;
    if (typeof error.type !== 'string') {
      localizeContentErrors(value as FieldErrors);
      continue;
    }
    if (!readFieldMessage(error.message)) error.message = contentMessage(error.message ?? '');
  }
}

/** A content schema as a form's resolver, its errors said in the member's language. */
export function contentResolver<Input extends FieldValues, Output>(schema: z.ZodType<Output, Input>): Resolver<Input, unknown, Output> {
  const resolve = zodResolver(schema, { error: issueMessage }) as unknown as Resolver<Input, unknown, Output>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    localizeContentErrors(result.errors);
    return result;
  };
}

/** The first error under a field that holds a list (a market symbol of several). */
export function firstError(error: unknown): FieldError | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if (typeof (error as FieldError).type === 'string') return error as FieldError;
  for (const each of Object.values(error)) {
    const found = firstError(each);
    if (found) return found;
  }
  return undefined;
}
