import type { ContentArticle } from '@keel/contracts';
import { ContentMarkdown } from '@keel/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { isolated, MarketLinks } from './ContentParts.tsx';
import { publishedDate } from './content-logic.ts';

/** Dates on notices and announcements; help articles, courses and the about page are not news. */
const DATED = new Set(['announcement', 'industry_news']);

/** A content body in Markdown, rendered safely by the shared renderer with in-app links kept in the app. */
export function ContentBody({ article }: { article: Pick<ContentArticle, 'body' | 'language' | 'fallback'> }) {
  const { t } = useI18n();
  if (article.body.trim() === '') return null;
  return (
    <div lang={article.language} dir={article.fallback ? 'ltr' : undefined} data-testid="content-body">
      <ContentMarkdown
        markdown={article.body}
        renderInternalLink={(path, children) => <Link to={path}>{children}</Link>}
        externalLinkLabel={t('web.content.externalLink')}
      />
    </div>
  );
}

/**
 * One item as a reader sees it: its title, date (news), "sample content" when it is, the note that
 * English stands in for the reader's language, the markets it is about (each opening its trade
 * screen) and its body. `children` go under the body (a course's lessons, a lesson's neighbours).
 */
export function ContentArticleView({ article, children }: { article: ContentArticle; children?: ReactNode }) {
  const { t } = useI18n();
  const titleId = `content-title-${article.id}`;
  return (
    <article className="content-article" aria-labelledby={titleId} data-testid="content-article" data-kind={article.kind} data-language={article.language}>
      <Card>
        <header className="content-article-head">
          <h2 className="content-title" id={titleId} lang={article.language} dir={article.fallback ? 'ltr' : undefined} data-testid="content-title">
            {article.title}
          </h2>
          {(DATED.has(article.kind) || article.sample) && (
            <p className="content-meta">
              {DATED.has(article.kind) && (
                <span className="muted" data-testid="content-date">
                  {t('web.content.article.published', { date: isolated(publishedDate(article.publishedAtMs)) })}
                </span>
              )}
              {article.sample && (
                <span className="badge content-sample" data-testid="content-sample">
                  {t('web.market.newsSample')}
                </span>
              )}
            </p>
          )}
        </header>
        {article.fallback && (
          <Notice testId="content-fallback">
            <span>{t('web.content.article.fallback')}</span>
          </Notice>
        )}
        {article.sample && <p className="muted content-sample-note">{t('web.content.article.sampleNote')}</p>}
        <MarketLinks
          symbols={article.marketSymbols}
          label={t('web.content.article.markets')}
          linkLabel={(symbol) => t('web.content.article.trade', { symbol })}
        />
        <ContentBody article={article} />
        {children}
      </Card>
    </article>
  );
}

/**
 * What a detail page shows while its item loads, when it failed, or when there is no such item;
 * null once the item is in (the page draws it).
 */
export function ArticleState({ state }: { state: { article: ContentArticle | null; notFound: boolean; failed: boolean; reload: () => void } }) {
  const { t } = useI18n();
  if (state.notFound) {
    return (
      <Card>
        <p data-testid="content-not-found">{t('web.content.article.notFound')}</p>
      </Card>
    );
  }
  if (state.failed) return <LoadFailedNotice onRetry={state.reload} />;
  if (!state.article) return <p className="muted">{t('web.common.loading')}</p>;
  return null;
}
