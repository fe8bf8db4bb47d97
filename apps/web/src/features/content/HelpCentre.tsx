import { useQueryClient } from '@tanstack/react-query';
import { serviceUrlAddress } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { ChevronIcon } from '../../shared/ui/icons.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { isOpenableServiceUrl } from '../service-fab/fab-logic.ts';
import { SEARCH_MAX_LENGTH, searchTerm } from './content-logic.ts';
import { categoryKeys, PagedContentRows } from './ContentLists.tsx';
import { type HelpCategory, useContentList, useHelpCategories, useHelpSearch, useReaderLang } from './useContent.ts';

const isCategory = (value: string | null): value is HelpCategory => value !== null && value in categoryKeys;

/** The search box: the words go into the address (`?q=`), so a search can be reloaded or shared. */
function HelpSearchBox({ current }: { current: string | null }) {
  const { t } = useI18n();
  const [, setParams] = useSearchParams();
  const [typed, setTyped] = useState(current ?? '');

  function submit(event: FormEvent) {
    event.preventDefault();
    const q = searchTerm(typed);
    setParams(q ? { q } : {});
  }

  return (
    <search>
    <form className="help-search" onSubmit={submit} data-testid="help-search">
        <label htmlFor="help-search-input" className="help-search-label">
          {t('web.content.search.label')}
        </label>
        <div className="help-search-row">
          <input
            id="help-search-input"
            type="search"
            name="q"
            value={typed}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={t('web.content.search.placeholder')}
            enterKeyHint="search"
            onChange={(event) => setTyped(event.target.value)}
            data-testid="help-search-input"
          />
          <Button type="submit" data-testid="help-search-submit">
            {t('web.content.search.submit')}
          </Button>
        </div>
        {current && (
          <Button
            variant="ghost"
            className="btn-small"
            onClick={() => {
              setTyped('');
              setParams({});
            }}
            data-testid="help-search-clear"
          >
            {t('web.content.search.clear')}
          </Button>
        )}
    </form>
    </search>
  );
}

/** The articles written in the reader's language that match the search, best first. */
function HelpSearchResults({ q }: { q: string }) {
  const { t } = useI18n();
  const list = useHelpSearch(q);
  return (
    <section aria-labelledby="help-results-title" data-testid="help-results">
      <h2 className="content-section-title" id="help-results-title">
        {t('web.content.search.results', { query: q })}
      </h2>
      <PagedContentRows list={list} empty={t('web.content.search.none', { query: q })} showDate={false} testId="help-results-list" />
    </section>
  );
}

/** The categories in order with their article counts; the chosen one is marked. */
function HelpCategories({ selected }: { selected: HelpCategory | null }) {
  const { t } = useI18n();
  const { categories, failed, reload } = useHelpCategories();
  return (
    <nav aria-labelledby="help-categories-title" data-testid="help-categories">
      <h2 className="content-section-title" id="help-categories-title">
        {t('web.content.help.categories')}
      </h2>
      {failed && <LoadFailedNotice onRetry={reload} />}
      {categories === null ? (
        !failed && <p className="muted">{t('web.common.loading')}</p>
      ) : (
        <ul className="help-categories">
          {categories.map(({ category, articles }) => (
            <li key={category}>
              <Link
                to={`?category=${category}`}
                className="list-link help-category"
                aria-current={category === selected ? 'true' : undefined}
                data-testid={`help-category-${category}`}
              >
                <span className="list-link-label">{t(categoryKeys[category])}</span>
                <span className="badge" data-testid="help-category-count">
                  {t('web.content.help.articleCount', { count: articles })}
                </span>
                <ChevronIcon />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

/** The published help articles of one category, in their order. */
function HelpCategoryArticles({ category }: { category: HelpCategory }) {
  const { t } = useI18n();
  const list = useContentList('help', category);
  return (
    <section aria-labelledby="help-category-title" data-testid="help-category-articles">
      <h2 className="content-section-title" id="help-category-title">
        {t(categoryKeys[category])}
      </h2>
      <PagedContentRows list={list} empty={t('web.content.help.empty')} showDate={false} testId="help-articles" />
    </section>
  );
}

/** The service URL is configuration: one answer serves every click for a while. */
const SERVICE_URL_STALE_MS = 10 * 60_000;

/** "Contact us": the customer service of the reader's language (the general one when none is set for it). */
function ContactUs() {
  const { t, tServer } = useI18n();
  const lang = useReaderLang();
  const client = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  async function open() {
    setBusy(true);
    try {
      const input = { query: { lang } };
      const url = await client.fetchQuery({
        queryKey: contractKey(serviceUrlAddress, input),
        queryFn: () => api(serviceUrlAddress, input),
        staleTime: SERVICE_URL_STALE_MS,
      });
      if (isOpenableServiceUrl(url)) window.location.assign(url);
      else toast(t('web.service.failed'));
    } catch (error) {
      if (!isSessionError(error)) toast(error instanceof Error ? tServer(error.message) : t('web.service.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="card-accent">
      <h2 className="card-title">{t('web.content.contact.title')}</h2>
      <p>{t('web.content.contact.body')}</p>
      <Button block busy={busy} onClick={() => void open()} data-testid="help-contact">
        {t('web.content.contact.button')}
      </Button>
    </Card>
  );
}

/**
 * The help centre (/helpcenter): search in the reader's language, the categories with how many
 * articles each has, the articles of the chosen one (`?category=`), and "contact us".
 */
export function HelpCentre() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const q = searchTerm(params.get('q'));
  const chosen = params.get('category');
  const selected = isCategory(chosen) ? chosen : null;
  return (
    <>
      <Card>
        <HelpSearchBox key={q ?? ''} current={q} />
      </Card>
      <Card>
        {q ? (
          <HelpSearchResults q={q} />
        ) : (
          <>
            <HelpCategories selected={selected} />
            {selected ? <HelpCategoryArticles category={selected} /> : <p className="muted">{t('web.content.help.pickCategory')}</p>}
          </>
        )}
      </Card>
      <ContactUs />
    </>
  );
}
