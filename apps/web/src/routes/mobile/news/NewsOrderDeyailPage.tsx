import { Link } from 'react-router';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Card, PageHeader } from '../../../shared/ui/components.tsx';
import { ChevronIcon, MarketIcon, RecordsIcon, TradeIcon } from '../../../shared/ui/icons.tsx';

/** Where a visitor of this page most likely wanted to go: the market list and the two kinds of order. */
const onwards = [
  { to: '/news', icon: MarketIcon, label: 'web.market.title', testId: 'news-pending-market' },
  { to: '/trade', icon: TradeIcon, label: 'web.newsPending.contractOrders', testId: 'news-pending-contracts' },
  { to: '/orderlist', icon: RecordsIcon, label: 'web.p2p.orders.title', testId: 'news-pending-p2p-orders' },
] as const;

/**
 * /news/OrderDeyail (spec section 2, "learning and information"; the spelling is the spec's): a
 * page of the news section, which has no articles yet. Until it lands (ADR 0029) the address says
 * so honestly instead of "not found", and leads on to the market list and the user's orders (the
 * name reads as "order detail"), with the way back to the market tab.
 */
export function NewsOrderDeyailPage() {
  const { t } = useI18n();
  return (
    <div className="page page-narrow" data-testid="page-news-pending">
      <PageHeader title={t('web.newsPending.title')} backTo="/news" />
      <Card>
        <p data-testid="news-pending-body">{t('web.newsPending.body')}</p>
        <p className="muted">{t('web.newsPending.meanwhile')}</p>
        <nav className="list" aria-label={t('web.newsPending.meanwhile')}>
          {onwards.map(({ to, icon: Icon, label, testId }) => (
            <Link key={to} to={to} className="list-link" data-testid={testId}>
              <span className="list-link-icon">
                <Icon />
              </span>
              <span className="list-link-label">{t(label)}</span>
              <ChevronIcon />
            </Link>
          ))}
        </nav>
      </Card>
    </div>
  );
}
