import { Link } from 'react-router';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Card } from '../../../shared/ui/components.tsx';
import { ChevronIcon, RecordsIcon, TradeIcon, WalletIcon } from '../../../shared/ui/icons.tsx';

/**
 * /trade and /trade_{id}: the fiat (P2P) shop and the user's orders are open; the other kinds of
 * trading arrive in later releases, and the tab says what it will hold.
 */
export function TradePage() {
  const { t } = useI18n();
  return (
    <div className="page tab-placeholder">
      <h1>{t('web.tab.trade')}</h1>
      <Card>
        <h2 className="card-title">{t('web.p2p.trade.title')}</h2>
        <p className="muted">{t('web.p2p.trade.intro')}</p>
        <nav className="list" aria-label={t('web.p2p.trade.title')}>
          <Link to="/trade/shopping" className="list-link" data-testid="trade-to-shop">
            <span className="list-link-icon">
              <WalletIcon />
            </span>
            <span className="list-link-label">{t('web.p2p.trade.shop')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/orderlist" className="list-link" data-testid="trade-to-orders">
            <span className="list-link-icon">
              <RecordsIcon />
            </span>
            <span className="list-link-label">{t('web.p2p.orders.title')}</span>
            <ChevronIcon />
          </Link>
        </nav>
      </Card>
      <div className="tab-placeholder-body">
        <span className="tab-placeholder-icon">
          <TradeIcon />
        </span>
        <p>{t('web.trade.description')}</p>
      </div>
    </div>
  );
}
