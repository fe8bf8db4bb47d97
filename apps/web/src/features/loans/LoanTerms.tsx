import type { LoansOverview } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { ValueFact as LoanFact, useTermText as useLoanText } from '../../shared/ui/Facts.tsx';

// The loans' published terms, as the loan screens and the public transparency page state them. No
// import of the loan screens' forms or refusals: the transparency page's chunk takes only these.

type Product = LoansOverview['products'][number];
type Policy = LoansOverview['policy'];

export const tierKeys: Record<number, MessageKey> = { 0: 'web.loans.tier.none', 1: 'web.loans.tier.identity', 2: 'web.loans.tier.advanced' };

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

/**
 * The published credit policy: the score's rule, its bands with their multipliers and the cap of
 * each verification tier; `currentBand` and `currentTier` mark the borrower's own (the loans
 * overview), none on the transparency page.
 */
export function CreditPolicyRules({ policy, currentBand, currentTier }: { policy: Policy; currentBand?: Policy['bands'][number]; currentTier?: number }) {
  const { t } = useI18n();
  const text = useLoanText();
  return (
    <>
      <p className="field-hint" data-testid="loan-score-rule">
        {t('web.loans.credit.rule', {
          base: policy.score.base,
          perOnTime: policy.score.perRepaidOnTime,
          counted: policy.score.repaidOnTimeCounted,
          perAtDue: policy.score.perLiquidatedAtDue,
          perEarly: policy.score.perLiquidatedEarly,
          min: policy.score.min,
          max: policy.score.max,
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
            <tr key={tier} aria-current={currentTier === index ? 'true' : undefined}>
              <td>{t(tierKeys[index]!)}</td>
              <td>{text.amount(policy.tierCapsUsdt[tier], 'USDT')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
