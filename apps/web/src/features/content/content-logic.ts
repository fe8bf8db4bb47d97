import type { ContentSummary } from '@keel/contracts';
import { formatDate } from '../../shared/format/time.ts';

/**
 * The pure parts of the content reader (issue 20): where an item opens, how its date reads, what a
 * search box sends, where a banner leads.
 */

type Opens = Pick<ContentSummary, 'id' | 'kind'>;

/**
 * The reader's page of an item, by kind (spec section 2 paths): an announcement `/news/detail/{id}`,
 * industry news `/industrynewdetail/{id}`, a help article `/helpcenterdetail/{id}`, a course and a
 * lesson `/course/detail/{id}`, the about page `/aboutus`. A banner opens its own link, not a page.
 */
export function contentPath(item: Opens): string | null {
  switch (item.kind) {
    case 'announcement':
      return `/news/detail/${item.id}`;
    case 'industry_news':
      return `/industrynewdetail/${item.id}`;
    case 'help':
      return `/helpcenterdetail/${item.id}`;
    case 'course':
    case 'lesson':
      return `/course/detail/${item.id}`;
    case 'about':
      return '/aboutus';
    default:
      return null;
  }
}

/** A published time as the spec's date (year-month-day, the device's time zone). */
export function publishedDate(publishedAtMs: number): string {
  return formatDate(new Date(publishedAtMs).toISOString());
}

/** The longest search the API takes (`searchHelpContract`'s `q`). */
export const SEARCH_MAX_LENGTH = 100;

/**
 * What a search box sends: the words typed with their spaces collapsed and trimmed, at most the
 * API's length (cut at a whole character), or null when nothing is left to search for.
 */
export function searchTerm(typed: string | null | undefined): string | null {
  // Controls are not words (and the API refuses them): they become spaces.
  const words = (typed ?? '').replace(/[\p{Cc}\p{Cf}]/gu, ' ').replace(/\s+/gu, ' ').trim();
  if (words === '') return null;
  return Array.from(words).slice(0, SEARCH_MAX_LENGTH).join('').trim();
}

/**
 * A banner's target when it is a page of this app (`/…`, not `//host`), else null: the API only
 * stores in-app paths, and a banner that would leave the app is drawn without a link.
 */
export function bannerTarget(linkPath: string | null): string | null {
  if (!linkPath?.startsWith('/') || linkPath.startsWith('//')) return null;
  return linkPath;
}

/** An id of an address (`/helpcenterdetail/{id}` …): digits only, as the API's ids are. */
export const CONTENT_ID = /^[1-9]\d{0,18}$/;
