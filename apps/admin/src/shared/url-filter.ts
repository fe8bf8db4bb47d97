import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

// A list's filter lives in the URL's query string (ADR 0028), so a link to a filtered queue, a
// search or a page can be shared between staff, and back and forward move between filters. The
// filter is read through the list contract's own query schema: the URL holds exactly what the
// list call takes, with the contract's defaults and rules.

/** A list contract's query schema (`pageQuerySchema.extend({...})`). */
export type ListQuerySchema = z.ZodObject;

/** The page size is the app's choice, never the URL's. */
const APP_OWNED = new Set(['pageSize']);

const keysOf = (schema: ListQuerySchema) => Object.keys(schema.shape).filter((key) => !APP_OWNED.has(key));

/** The schema's defaults: what a URL without the key means (status "pending", page 1 …). */
function defaultsOf<S extends ListQuerySchema>(schema: S): Partial<z.output<S>> {
  const parsed = schema.safeParse({});
  return parsed.success ? parsed.data : {};
}

/**
 * The filter a query string names, read through the list contract's query schema. A value the
 * schema refuses (a mistyped status, a page "x", an id with letters) is left out — the list opens
 * with its default instead of an error — and every other value stays. `pageSize` is not read.
 */
export function filterFromSearch<S extends ListQuerySchema>(schema: S, search: URLSearchParams): z.output<S> {
  const raw: Record<string, string> = {};
  for (const key of keysOf(schema)) {
    const value = search.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  // Each round drops the values an issue names; the keys bound the rounds.
  for (let round = 0; round <= Object.keys(raw).length; round++) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const refused = parsed.error.issues.map((issue) => String(issue.path[0])).filter((key) => key in raw);
    if (refused.length === 0) break;
    for (const key of refused) delete raw[key];
  }
  return defaultsOf(schema) as z.output<S>;
}

/**
 * The query string of a filter: only the values that differ from the schema's defaults, in the
 * schema's key order, so one filter always has one URL (the one a member shares).
 */
export function searchFromFilter<S extends ListQuerySchema>(schema: S, filter: Partial<z.output<S>>): string {
  const defaults = defaultsOf(schema) as Record<string, unknown>;
  const values = filter as Record<string, unknown>;
  const search = new URLSearchParams();
  for (const key of keysOf(schema)) {
    const value = values[key];
    if (value === undefined || value === null || value === '' || value === defaults[key]) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The filter after `changes`: a change of anything but the page starts again at page 1 (page 3 of
 * another filter is another list's page 3).
 */
export function changeFilter<T extends Record<string, unknown>>(current: T, changes: Partial<T>): T {
  const refiltered = Object.entries(changes).some(([key, value]) => key !== 'page' && value !== current[key]);
  const next: Record<string, unknown> = { ...current, ...changes };
  if (refiltered && !('page' in changes)) delete next.page;
  return next as T;
}

/**
 * The filter of the current URL and the ways to change it. `searchFor(changes)` is the query
 * string of the changed filter (for links: a status tab, an item that keeps the list's filter);
 * `setFilter(changes)` goes there as a new history entry, on the same path.
 */
export function useUrlFilter<S extends ListQuerySchema>(schema: S) {
  const [search, setSearch] = useSearchParams();
  const filter = useMemo(() => filterFromSearch(schema, search), [schema, search]);
  const searchFor = useCallback(
    (changes: Partial<z.output<S>>) => searchFromFilter(schema, changeFilter(filter as Record<string, unknown>, changes as Record<string, unknown>) as Partial<z.output<S>>),
    [schema, filter],
  );
  const setFilter = useCallback((changes: Partial<z.output<S>>) => setSearch(searchFor(changes)), [setSearch, searchFor]);
  return { filter, searchFor, setFilter };
}
