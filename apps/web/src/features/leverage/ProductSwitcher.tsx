import type { MessageKey } from '@keel/locales';
import { Link, useLocation } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { tradeIdOf, tradePath } from '../options/options-logic.ts';
import { leveragePath, type TradeProduct, tradeProductOf } from './trade-products.ts';

const products: readonly { product: TradeProduct; label: MessageKey }[] = [
  { product: 'contracts', label: 'web.tab.product.contracts' },
  { product: 'leveraged', label: 'web.tab.product.leveraged' },
  { product: 'futures', label: 'web.tab.product.futures' },
];

/** The market the address names, to keep when switching product: `/trade_{id}` or `?symbol=`. */
function marketOf(pathname: string, search: string): string | null {
  return tradeIdOf(pathname) ?? new URLSearchParams(search).get('symbol');
}

/**
 * The trade tab's products (issue 16): the short-cycle contracts (/trade), leveraged and futures
 * trading (/trade/leveraged, /trade/futures). The market on screen goes along to the other
 * product. Its texts are in the tab's download (`web.tab.*`), as the contract screen's are.
 */
export function ProductSwitcher() {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  const current = tradeProductOf(pathname);
  const market = marketOf(pathname, search);
  const pathOf = (product: TradeProduct) => {
    if (product !== 'contracts') return leveragePath(product, market);
    return market ? tradePath(market) : '/trade';
  };
  return (
    <nav className="product-switcher" aria-label={t('web.tab.product.label')} data-testid="product-switcher">
      {products.map(({ product, label }) => (
        <Link
          key={product}
          to={pathOf(product)}
          className={product === current ? 'product-switcher-link active' : 'product-switcher-link'}
          aria-current={product === current ? 'page' : undefined}
          data-testid={`product-${product}`}
        >
          {t(label)}
        </Link>
      ))}
    </nav>
  );
}
