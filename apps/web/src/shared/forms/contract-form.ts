// The parts of the forms foundation that need no React context (ADR 0027); `index.ts` documents the API.
import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError, type BodyOf, type Contract, errorCatalogue, type ErrorKey } from '@keel/contracts';
import {
  type FieldError,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  get,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { useMemo } from 'react';
import { isSessionError } from '../api/client.ts';
import { encodeProblem, issueMessage, refusalParts } from './problems.ts';

/** A form of values `T`, whatever its context and its validated (output) values. */
// biome-ignore lint/suspicious/noExplicitAny: the context and output types play no part where this is used.
export type FormOf<T extends FieldValues> = UseFormReturn<T, any, any>;
type AnyForm = FormOf<FieldValues>;

type FormSchema = z.ZodType<FieldValues, FieldValues>;

/**
 * The zod resolver with Keel's messages: issues without a message of their own get an encoded
 * problem (`rule:tooShort {"minimum":6}`), and any field left empty says "required" whichever of its
 * rules the empty text broke first.
 */
export function contractResolver<S extends FormSchema>(schema: S): Resolver<z.input<S>, unknown, z.output<S>> {
  const resolve = zodResolver(schema, { error: issueMessage }) as unknown as Resolver<z.input<S>, unknown, z.output<S>>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    markEmptyAsRequired(result.errors as FieldErrors, values, '');
    return result;
  };
}

function isFieldError(node: unknown): node is FieldError {
  return typeof node === 'object' && node !== null && typeof (node as FieldError).type === 'string';
}

function markEmptyAsRequired(errors: FieldErrors, values: FieldValues, prefix: string): void {
  for (const [name, node] of Object.entries(errors)) {
    if (name === 'ref' || name === 'root' || typeof node !== 'object' || node === null) continue;
    const path = prefix === '' ? name : `${prefix}.${name}`;
    if (isFieldError(node)) {
      const value: unknown = get(values, path);
      if (typeof value === 'string' && value.trim() === '') node.message = encodeProblem({ rule: 'required' });
    } else {
      markEmptyAsRequired(node as FieldErrors, values, path);
    }
  }
}

/** A contract's body schema, for a form that sends it as it is (or picks from or extends it). */
export function bodySchema<C extends Contract>(contract: C): NonNullable<BodyOf<C>> {
  if (!contract.body) throw new Error(`${contract.id} has no body`);
  return contract.body as NonNullable<BodyOf<C>>;
}

/** react-hook-form's `useForm`, validated by a contract's schema (see the header). */
export function useContractForm<S extends FormSchema>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  // A form may switch schemas (a tab, a field that becomes required); react-hook-form reads the
  // resolver anew on every render, so the current schema is the one that validates.
  const resolver = useMemo(() => contractResolver(schema), [schema]);
  return useForm<z.input<S>, unknown, z.output<S>>({ ...options, resolver });
}

/**
 * The schema with a confirmation rule: `confirmation` must equal `field`, or the catalogue's
 * "passwords inconsistent" (what the server answers for the same mistake) shows on `confirmation`.
 */
export function mustMatch<S extends z.ZodObject>(schema: S, field: keyof z.output<S> & string, confirmation: keyof z.output<S> & string) {
  return schema.refine((values) => values[field] === values[confirmation], {
    path: [confirmation],
    message: errorCatalogue.PASSWORDS_INCONSISTENT.msg,
    // zod skips a refinement of an object once another field failed (an unticked agreement); the
    // mismatch is shown with the other problems whenever both texts are there to compare.
    when: (payload) => {
      const value = payload.value as Record<string, unknown> | undefined;
      return typeof value?.[field] === 'string' && typeof value?.[confirmation] === 'string';
    },
  });
}

export interface RefusalOptions<T extends FieldValues> {
  /** Catalogue errors that belong to one field, e.g. `{ WRONG_PHONE_NUMBER: 'phone' }`. */
  fieldErrors?: Partial<Record<ErrorKey, FieldPath<T>>>;
  /** Server fields whose form field has another name or place, e.g. `{ 'body.target': 'email' }`. */
  fields?: Record<string, FieldPath<T>>;
}

/** Puts a refused call on the form (see the header). */
export function applyRefusal<T extends FieldValues>(form: FormOf<T>, error: unknown, options: RefusalOptions<T> = {}): void {
  if (isSessionError(error)) return;
  if (!(error instanceof ApiError)) {
    setNotice(form as AnyForm, errorCatalogue.SYSTEM_ERROR.msg, 'server');
    return;
  }
  const renamed = options.fields ?? {};
  const values: FieldValues = form.getValues();
  const isField = (path: string) => get(values, path) !== undefined || path.split('.')[0]! in values;
  const withRenames = new ApiError({
    code: error.code,
    msg: error.message,
    data: renameFields(error.data, renamed),
  });
  const { fields, notice } = refusalParts(withRenames, (options.fieldErrors ?? {}) as Partial<Record<string, string>>, isField);
  for (const [index, each] of fields.entries()) {
    form.setError(each.path as FieldPath<T>, { type: 'server', message: each.message }, { shouldFocus: index === 0 });
  }
  if (notice !== null) setNotice(form as AnyForm, notice, 'server');
}

function renameFields(data: unknown, renamed: Record<string, string>): unknown {
  const listed = (data as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(listed) || Object.keys(renamed).length === 0) return data;
  return {
    ...(data as object),
    fields: listed.map((entry: { field?: unknown }) =>
      typeof entry?.field === 'string' && renamed[entry.field] !== undefined ? { ...entry, field: `body.${renamed[entry.field]}` } : entry,
    ),
  };
}

/** Shows an already translated text as the form's notice (e.g. a refusal that names a time). */
export function setFormNotice<T extends FieldValues>(form: FormOf<T>, text: string): void {
  setNotice(form as AnyForm, text, 'text');
}

function setNotice(form: AnyForm, message: string, type: 'server' | 'text'): void {
  form.setError('root.server', { type, message });
}
