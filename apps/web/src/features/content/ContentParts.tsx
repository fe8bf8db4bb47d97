import type { ContentSummary } from '@keel/contracts';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { ChevronIcon } from '../../shared/ui/icons.tsx';
import { tradePath } from '../options/options-logic.ts';
import { contentPath, publishedDate } from './content-logic.ts';
import './content.css';

// The parts of content that the home and market tabs show too: only texts of the tabs' part
// (`web.market.*`, `web.home.*`), so a tab never waits for the feature pages' texts.

/** A date isolated left to right, so a right-to-left sentence keeps its digits in order. */
export const isolated = (text: string) => `\u2066${text}\u2069`;

/** The labels an item carries in a list: "sample content" and, when English stands in, "in English". */
export function ContentBadges({ item }: { item: Pick<ContentSummary, 'sample' | 'fallback'> }) {
  const { t } = useI18n();
  return (
    <>
      {item.sample && (
        <span className="badge content-sample" data-testid="content-sample">
          {t('web.market.newsSample')}
        </span>
      )}
      {item.fallback && (
        <span className="badge" data-testid="content-english">
          {t('web.market.newsEnglish')}
        </span>
      )}
    </>
  );
}

/**
 * One item of a list, opening its page: title, summary, and (for news) the date. The words are in
 * the item's language, which is English when the reader's has no translation yet.
 */
export function ContentRow({ item, showDate = true, testIdPrefix = 'content-item' }: { item: ContentSummary; showDate?: boolean; testIdPrefix?: string }) {
  const to = contentPath(item) ?? '/';
  return (
    <li>
      <Link to={to} className="content-row" data-testid={`${testIdPrefix}-${item.id}`} data-kind={item.kind}>
        <span className="content-row-text" lang={item.language} dir={item.fallback ? 'ltr' : undefined}>
          <span className="content-row-title" data-testid="content-row-title">
            {item.title}
          </span>
          {item.summary && <span className="content-row-summary muted">{item.summary}</span>}
          {(showDate || item.sample || item.fallback) && (
            <span className="content-row-meta">
              {showDate && <span className="muted">{isolated(publishedDate(item.publishedAtMs))}</span>}
              <ContentBadges item={item} />
            </span>
          )}
        </span>
        <ChevronIcon />
      </Link>
    </li>
  );
}

/** Items as a list of links. */
export function ContentRows({ items, showDate, testId = 'content-list', label }: { items: readonly ContentSummary[]; showDate?: boolean; testId?: string; label?: string }) {
  return (
    <ul className="content-rows" data-testid={testId} aria-label={label}>
      {items.map((item) => (
        <ContentRow key={item.id} item={item} showDate={showDate} />
      ))}
    </ul>
  );
}

/** The markets a news item is about, each opening its trade screen (`/trade_{id}`, as home's movers do). */
export function MarketLinks({ symbols, label, linkLabel }: { symbols: readonly string[]; label: string; linkLabel: (symbol: string) => string }) {
  if (symbols.length === 0) return null;
  return (
    <nav className="content-markets" aria-label={label} data-testid="content-markets">
      <ul>
        {symbols.map((symbol) => {
          const [base, quote] = symbol.split('/');
          return (
            <li key={symbol}>
              <Link to={tradePath(symbol)} className="content-market" aria-label={linkLabel(symbol)} data-testid={`content-market-${symbol.replace('/', '-')}`}>
                <bdi dir="ltr">
                  <strong>{base}</strong>
                  <span className="muted">/{quote}</span>
                </bdi>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
