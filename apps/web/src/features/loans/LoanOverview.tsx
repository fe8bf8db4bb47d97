import type { LoansOverview } from '@keel/contracts';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { LoanFact, LoanSwitch, PriceText, useLoanText } from './LoanParts.tsx';
import { CreditPolicyRules, LoanProductFacts, tierKeys } from './LoanTerms.tsx';
import { useLoansOverview } from './useLoans.ts';

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
      <CreditPolicyRules policy={policy} currentBand={currentBand} currentTier={credit.tier} />
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
