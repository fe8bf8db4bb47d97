import type { LoansOverview } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { LoanFact, LoanSwitch, PriceText, useLoanText } from './LoanParts.tsx';
import { useLoansOverview } from './useLoans.ts';

type Product = LoansOverview['products'][number];

const tierKeys: Record<number, MessageKey> = { 0: 'web.loans.tier.none', 1: 'web.loans.tier.identity', 2: 'web.loans.tier.advanced' };

/** A product's terms: rate, cycle, range, what each collateral lends at, the margin-call and liquidation ratios. */
export function LoanProductFacts({ product, testPrefix }: { product: Product; testPrefix: string }) {
  const { t } = useI18n();
  const text = useLoanText();
  return (
    <dl className="facts">
      <LoanFact label={t('web.loans.dailyRate')} testId={`${testPrefix}-rate`} value={product.dailyRatePercent}>
        {text.percent(product.dailyRatePercent)}
      </LoanFact>
      <LoanFact label={t('web.loans.cycle')} testId={`${testPrefix}-cycle`} value={String(product.cycleDays)}>
        {t('web.loans.days', { count: product.cycleDays })}
      </LoanFact>
      <LoanFact label={t('web.loans.range')} testId={`${testPrefix}-range`}>
        {t('web.loans.rangeValue', { min: text.amount(product.minAmount, product.asset), max: text.amount(product.maxAmount, product.asset) })}
      </LoanFact>
      <LoanFact label={t('web.loans.collateralTerms')} testId={`${testPrefix}-collateral`}>
        {product.collateral.map((each) => t('web.loans.collateralTerm', { asset: each.asset, ltv: text.percent(each.ltvPercent) })).join(' · ')}
      </LoanFact>
      <LoanFact label={t('web.loans.marginCallLtv')} testId={`${testPrefix}-margin-call`} value={product.marginCallLtvPercent}>
        {text.percent(product.marginCallLtvPercent)}
      </LoanFact>
      <LoanFact label={t('web.loans.liquidationLtv')} testId={`${testPrefix}-liquidation`} value={product.liquidationLtvPercent}>
        {text.percent(product.liquidationLtvPercent)}
      </LoanFact>
    </dl>
  );
}

/** The credit: tier cap, the score with each term of its sum, the published rule and bands, the cap, committed and available. */
function CreditCard({ data }: { data: LoansOverview }) {
  const { t } = useI18n();
  const text = useLoanText();
  const { credit, policy } = data;
  const rule = policy.score;
  const counted = Math.min(credit.history.repaidOnTime, rule.repaidOnTimeCounted);
  const currentBand = policy.bands.find((band) => credit.score >= band.minScore);
  return (
    <Card className="loans-card">
      <h2 className="card-title">{t('web.loans.credit.title')}</h2>
      <dl className="facts" data-testid="loan-credit">
        <LoanFact label={t('web.loans.credit.tier')} testId="loan-credit-tier" value={String(credit.tier)}>
          {t(tierKeys[credit.tier] ?? 'web.loans.tier.none')}
        </LoanFact>
        <LoanFact label={t('web.loans.credit.tierCap')} testId="loan-credit-tier-cap" value={credit.tierCap}>
          <Amount value={credit.tierCap} unit="USDT" max={6} />
        </LoanFact>
        <div className="facts-strong">
          <dt>{t('web.loans.credit.score')}</dt>
          <dd data-testid="loan-credit-score" data-value={String(credit.score)}>
            {credit.score}
          </dd>
        </div>
      </dl>
      <h3 className="earn-subtitle">{t('web.loans.credit.scoreSum')}</h3>
      <ul className="loans-score-sum" data-testid="loan-score-parts">
        <li data-testid="loan-score-base" data-value={String(credit.scoreParts.base)}>
          {t('web.loans.credit.partBase', { points: credit.scoreParts.base })}
        </li>
        <li data-testid="loan-score-on-time" data-value={String(credit.scoreParts.repaidOnTime)}>
          {t('web.loans.credit.partOnTime', { count: counted, per: rule.perRepaidOnTime, points: credit.scoreParts.repaidOnTime })}
        </li>
        <li data-testid="loan-score-at-due" data-value={String(credit.scoreParts.liquidatedAtDue)}>
          {t('web.loans.credit.partAtDue', { count: credit.history.liquidatedAtDue, per: rule.perLiquidatedAtDue, points: credit.scoreParts.liquidatedAtDue })}
        </li>
        <li data-testid="loan-score-early" data-value={String(credit.scoreParts.liquidatedEarly)}>
          {t('web.loans.credit.partEarly', { count: credit.history.liquidatedEarly, per: rule.perLiquidatedEarly, points: credit.scoreParts.liquidatedEarly })}
        </li>
        <li>
          <strong>{t('web.loans.credit.partTotal', { score: credit.score, min: rule.min, max: rule.max })}</strong>
        </li>
      </ul>
      <p className="field-hint" data-testid="loan-score-rule">
        {t('web.loans.credit.rule', {
          base: rule.base,
          perOnTime: rule.perRepaidOnTime,
          counted: rule.repaidOnTimeCounted,
          perAtDue: rule.perLiquidatedAtDue,
          perEarly: rule.perLiquidatedEarly,
          min: rule.min,
          max: rule.max,
        })}
      </p>
      <table className="loans-table" data-testid="loan-score-bands">
        <caption className="visually-hidden">{t('web.loans.credit.bandsTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('web.loans.credit.bandScore')}</th>
            <th scope="col">{t('web.loans.credit.bandMultiplier')}</th>
          </tr>
        </thead>
        <tbody>
          {policy.bands.map((band) => (
            <tr key={band.minScore} aria-current={band === currentBand ? 'true' : undefined} data-testid={`loan-band-${band.minScore}`}>
              <td>{t('web.loans.credit.bandFrom', { score: band.minScore })}</td>
              <td>{text.percent(band.capMultiplierPercent)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="loans-table" data-testid="loan-tier-caps">
        <caption className="visually-hidden">{t('web.loans.credit.tierCapsTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('web.loans.credit.tier')}</th>
            <th scope="col">{t('web.loans.credit.tierCap')}</th>
          </tr>
        </thead>
        <tbody>
          {(['none', 'identity', 'advanced'] as const).map((tier, index) => (
            <tr key={tier} aria-current={credit.tier === index ? 'true' : undefined}>
              <td>{t(tierKeys[index]!)}</td>
              <td>{text.amount(policy.tierCapsUsdt[tier], 'USDT')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="facts">
        <LoanFact label={t('web.loans.credit.cap')} testId="loan-credit-cap" value={credit.cap}>
          {t('web.loans.credit.capValue', { tierCap: text.amount(credit.tierCap, 'USDT'), multiplier: text.percent(credit.capMultiplierPercent), cap: text.amount(credit.cap, 'USDT') })}
        </LoanFact>
        <LoanFact label={t('web.loans.credit.committed')} testId="loan-credit-committed" value={credit.committed}>
          <Amount value={credit.committed} unit="USDT" max={6} />
        </LoanFact>
        <div className="facts-strong">
          <dt>{t('web.loans.credit.available')}</dt>
          <dd data-testid="loan-credit-available" data-value={credit.available}>
            <Amount value={credit.available} unit="USDT" max={6} />
          </dd>
        </div>
      </dl>
      <p className="field-hint">{t('web.loans.credit.twoPerson', { amount: text.amount(policy.twoPersonAboveUsdt, 'USDT') })}</p>
      {credit.tier === 0 && (
        <Notice tone="warning" testId="loan-credit-verify">
          <p>{t('web.loans.credit.verifyFirst')}</p>
          <Link to="/person/authentication">{t('web.verification.centreTitle')}</Link>
        </Notice>
      )}
    </Card>
  );
}

/**
 * /person/Loan: the loan products with their terms; the user's credit (tier cap, the score with
 * each term of its sum and the published rule and bands, committed, available); the lending
 * treasury and its ledger balance; the collateral prices with their tick ids; the ways onward.
 */
export function LoanOverviewView() {
  const { t } = useI18n();
  const text = useLoanText();
  const overview = useLoansOverview();
  const data = overview.data;
  return (
    <>
      <LoanSwitch current="overview" />
      <p className="muted">{t('web.loans.intro')}</p>
      {overview.failed && <LoadFailedNotice onRetry={overview.reload} />}
      {data === null ? (
        !overview.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : (
        <div className="loans-stack">
          <CreditCard data={data} />
          <Card className="loans-card">
            <h2 className="card-title">{t('web.loans.lender.title')}</h2>
            <p data-testid="loan-lender" data-balance={data.lender.balance} data-account-id={data.lender.accountId ?? ''}>
              {data.lender.accountId === null
                ? t('web.loans.lender.none')
                : t('web.loans.lender.text', { account: data.lender.accountId, balance: text.amount(data.lender.balance, 'USDT') })}
            </p>
          </Card>
          <Card className="loans-card">
            <h2 className="card-title">{t('web.loans.prices.title')}</h2>
            <dl className="facts" data-testid="loan-prices">
              {data.prices.map((price) => (
                <LoanFact key={price.asset} label={price.symbol ?? price.asset} testId={`loan-price-${price.asset}`} value={price.price ?? ''}>
                  <PriceText price={price} />
                </LoanFact>
              ))}
            </dl>
          </Card>
          <h2 className="earn-subtitle">{t('web.loans.products.title')}</h2>
          {data.products.length === 0 ? (
            <p className="muted" data-testid="loan-no-products">
              {t('web.loans.products.none')}
            </p>
          ) : (
            data.products.map((product) => (
              <Card key={product.id} className="loans-card">
                <article data-testid={`loan-product-${product.id}`} data-product-id={product.id}>
                  <h3 className="card-title">{product.name}</h3>
                  <LoanProductFacts product={product} testPrefix="loan-product" />
                  {product.open ? (
                    <Link to={`/person/Apply?productId=${product.id}`} className="btn btn-primary btn-block" data-testid="loan-product-apply">
                      {t('web.loans.products.apply', { name: product.name })}
                    </Link>
                  ) : (
                    <p className="muted" data-testid="loan-product-closed">
                      {t('web.loans.products.closed')}
                    </p>
                  )}
                </article>
              </Card>
            ))
          )}
          <div className="loans-links">
            <Link to="/person/loanList" className="btn btn-secondary" data-testid="loan-link-list">
              {t('web.loans.nav.list')}
            </Link>
            <Link to="/person/loanBack" className="btn btn-secondary" data-testid="loan-link-repay">
              {t('web.loans.nav.repay')}
            </Link>
          </div>
        </div>
      )}
    </>
  );
}
