import type { EarnProduct } from '@keel/contracts';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { ProductFacts, TreasuryNote } from './EarnParts.tsx';
import { type EarnKind, useEarnOverview } from './useEarn.ts';

/** The two kinds of product, each its own address (spec section 2). */
const kinds: readonly { kind: EarnKind; to: string; label: 'web.earn.kind.lockup' | 'web.earn.kind.financial' }[] = [
  { kind: 'lockup', to: '/Lockup', label: 'web.earn.kind.lockup' },
  { kind: 'financial', to: '/Lockup/Financial', label: 'web.earn.kind.financial' },
];

/** The switch between lock-up mining and financial products, and the way to the user's subscriptions. */
export function EarnSwitch({ current }: { current: EarnKind | 'mine' }) {
  const { t } = useI18n();
  return (
    <nav className="earn-switch" aria-label={t('web.earn.switch')} data-testid="earn-switch">
      {[...kinds, { kind: 'mine' as const, to: '/Lockup/subscribe', label: 'web.earn.mine.title' as const }].map((each) => (
        <Link
          key={each.kind}
          to={each.to}
          className={each.kind === current ? 'earn-switch-link active' : 'earn-switch-link'}
          aria-current={each.kind === current ? 'page' : undefined}
          data-testid={`earn-switch-${each.kind}`}
        >
          {t(each.label)}
        </Link>
      ))}
    </nav>
  );
}

function ProductCard({ product }: { product: EarnProduct }) {
  const { t } = useI18n();
  return (
    <Card className="earn-product">
      <article data-testid={`earn-product-${product.id}`} data-product-id={product.id}>
        <h2 className="card-title" data-testid="earn-product-name">
          {product.name}
        </h2>
        <ProductFacts product={product} testPrefix="earn-product" />
        {product.open ? (
          <Link to={`/Lockup/Purchase/${product.id}`} className="btn btn-primary btn-block" data-testid="earn-product-purchase">
            {t('web.earn.purchase.link', { name: product.name })}
          </Link>
        ) : (
          <p className="muted" data-testid="earn-product-closed">
            {t('web.earn.closed')}
          </p>
        )}
      </article>
    </Card>
  );
}

/**
 * /Lockup and /Lockup/Financial: the products of one kind, each with its terms and a way to
 * subscribe, and above them who pays the yield — the earn treasury of each asset, its ledger
 * balance and what it owes (ADR 0035).
 */
export function EarnProducts({ kind }: { kind: EarnKind }) {
  const { t } = useI18n();
  const overview = useEarnOverview(kind);
  const data = overview.data;
  const assets = data ? [...new Set(data.products.map((product) => product.asset))] : [];
  return (
    <>
      <EarnSwitch current={kind} />
      <p className="muted">{t(kind === 'lockup' ? 'web.earn.intro.lockup' : 'web.earn.intro.financial')}</p>
      {overview.failed && <LoadFailedNotice onRetry={overview.reload} />}
      {data === null ? (
        !overview.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : data.products.length === 0 ? (
        <p className="muted" data-testid="earn-no-products">
          {t('web.earn.noProducts')}
        </p>
      ) : (
        <>
          <Card className="earn-treasuries">
            <h2 className="card-title">{t('web.earn.treasury.title')}</h2>
            {assets.map((asset) => (
              <TreasuryNote key={asset} asset={asset} treasury={data.treasuries.find((each) => each.asset === asset)} />
            ))}
          </Card>
          <div className="earn-products" data-testid="earn-products">
            {data.products.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </div>
        </>
      )}
    </>
  );
}
