import type { MessageKey } from '@keel/locales';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { ContentRows } from './ContentParts.tsx';
import { type ListedKind, useLatestContent } from './useContent.ts';

/** How many items of each kind the market tab shows before "see all". */
export const NEWS_SHOWN = 5;

function NewsSection({ kind, title, allTo }: { kind: ListedKind; title: MessageKey; allTo: string }) {
  const { t } = useI18n();
  const { items, failed, reload } = useLatestContent(kind, NEWS_SHOWN);
  const titleId = `news-${kind}-title`;
  return (
    <Card>
      <section aria-labelledby={titleId} data-testid={`news-${kind}`}>
        <div className="home-card-head">
          <h2 className="card-title" id={titleId}>
            {t(title)}
          </h2>
          <Link to={allTo} className="home-more" data-testid={`news-${kind}-all`}>
            {t('web.market.newsAll')}
          </Link>
        </div>
        {failed && <LoadFailedNotice onRetry={reload} />}
        {items === null ? (
          !failed && <p className="muted">{t('web.common.loading')}</p>
        ) : items.length === 0 ? (
          <p className="muted">{t('web.market.newsEmpty')}</p>
        ) : (
          <ContentRows items={items} testId={`news-${kind}-list`} />
        )}
      </section>
    </Card>
  );
}

/**
 * The market tab's news (beside the markets): Keel's latest announcements and the latest industry
 * news, each opening its page, with the way to each full list.
 */
export function NewsFeed() {
  return (
    <div className="news-feed" data-testid="news-feed">
      <NewsSection kind="announcement" title="web.market.newsAnnouncements" allTo="/news/OrderDeyail" />
      <NewsSection kind="industry_news" title="web.market.newsIndustry" allTo="/industrynews" />
    </div>
  );
}
