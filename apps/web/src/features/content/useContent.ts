import {
  ApiError,
  type ContentArticle,
  type ContentSummary,
  errorCatalogue,
  getAboutAddress,
  getContentAddress,
  getContentHomeAddress,
  listContentAddress,
  listHelpCategoriesAddress,
  searchHelpAddress,
} from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';

/**
 * The content reader's reads (issue 20). Every one is public (no session needed) and names the
 * language shown (`lang`), so each language is its own cached answer and a change of language asks
 * again. Through addresses (contracts' content.addresses.ts): the home and market tabs use these too.
 */

export type HelpCategory = NonNullable<ContentSummary['category']>;
export type ListedKind = 'announcement' | 'industry_news' | 'help' | 'course';

/** The reader's language, as the API takes it. */
export function useReaderLang() {
  return useI18n().locale;
}

/** One kind of content, a page at a time (`?page=`), newest first (help and courses in their order). */
export function useContentList(kind: ListedKind, category?: HelpCategory) {
  const lang = useReaderLang();
  return usePagedQuery(listContentAddress, category ? { kind, category, lang } : { kind, lang });
}

/** The first `pageSize` items of a kind (the market tab's news), without a page in the address. */
export function useLatestContent(kind: ListedKind, pageSize: number) {
  const lang = useReaderLang();
  const query = useContractQuery(listContentAddress, { query: { kind, lang, page: 1, pageSize } });
  return { items: query.data?.items ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}

function articleState(query: { data?: ContentArticle; error: unknown; isError: boolean; refetch: () => unknown }) {
  const notFound = query.error instanceof ApiError && query.error.message === errorCatalogue.RECORD_NOT_FOUND.msg;
  return {
    article: query.data ?? null,
    notFound,
    failed: !notFound && loadFailed(query),
    reload: () => void query.refetch(),
  };
}

/** One published item with its body ("no such item" told apart from a failed load). */
export function useContentItem(itemId: string) {
  const lang = useReaderLang();
  return articleState(useContractQuery(getContentAddress, { params: { itemId }, query: { lang } }));
}

/** The about page. */
export function useAbout() {
  const lang = useReaderLang();
  return articleState(useContractQuery(getAboutAddress, { query: { lang } }));
}

/** What home shows: the live banners in their order and the three latest announcements. */
export function useContentHome() {
  const lang = useReaderLang();
  const query = useContractQuery(getContentHomeAddress, { query: { lang } });
  return { home: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}

/** The help centre's categories in order, with how many published articles each has. */
export function useHelpCategories() {
  const query = useContractQuery(listHelpCategoriesAddress);
  return { categories: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}

/** The help articles written in the reader's language that match `q`, best first, a page at a time. */
export function useHelpSearch(q: string) {
  const lang = useReaderLang();
  return usePagedQuery(searchHelpAddress, { q, lang });
}
