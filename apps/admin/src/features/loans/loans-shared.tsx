import type { ContractData, LoanProductProposal, listStaffLoanProductsContract } from '@keel/contracts';
import { useI18n } from '../../shared/i18n.tsx';

export type StaffLoanProducts = ContractData<typeof listStaffLoanProductsContract>;
export type StaffLoanProduct = StaffLoanProducts['products'][number];

/** A percent as the server writes it ("0.1000"), without trailing zeros: "0.1". */
export function shortPercent(percent: string): string {
  return percent.includes('.') ? percent.replace(/0+$/, '').replace(/\.$/, '') : percent;
}

/** The collateral a product takes: "BTC 65 % · ETH 60 %". */
export function collateralText(collateral: readonly { asset: string; ltvPercent: string }[], t: ReturnType<typeof useI18n>['t']): string {
  return collateral.map((each) => t('admin.loans.collateralItem', { asset: each.asset, ltv: shortPercent(each.ltvPercent) })).join(' · ');
}

/** The terms a proposal would publish, every field of it, as a compact list. */
export function ProposalTerms({ proposal }: { proposal: LoanProductProposal }) {
  const { t } = useI18n();
  return (
    <dl className="fields tick" data-testid="change-terms">
      <dt>{t('admin.loans.products.col.name')}</dt>
      <dd data-testid="terms-name">{proposal.name}</dd>
      <dt>{t('admin.loans.products.col.rate')}</dt>
      <dd data-testid="terms-rate">{t('admin.loans.percentPerDay', { percent: shortPercent(proposal.dailyRatePercent) })}</dd>
      <dt>{t('admin.loans.products.col.cycle')}</dt>
      <dd data-testid="terms-cycle">{t('admin.loans.days', { days: proposal.cycleDays })}</dd>
      <dt>{t('admin.loans.products.col.range')}</dt>
      <dd data-testid="terms-range">{t('admin.loans.range', { min: proposal.minAmount, max: proposal.maxAmount })}</dd>
      <dt>{t('admin.loans.col.collateral')}</dt>
      <dd data-testid="terms-collateral">{collateralText(proposal.collateral, t)}</dd>
      <dt>{t('admin.loans.products.col.ratios')}</dt>
      <dd data-testid="terms-ratios">
        {t('admin.loans.thresholds', { marginCall: shortPercent(proposal.marginCallLtvPercent), liquidation: shortPercent(proposal.liquidationLtvPercent) })}
      </dd>
      <dt>{t('admin.loans.products.col.state')}</dt>
      <dd data-testid="terms-open">{t(proposal.open ? 'admin.loans.products.open' : 'admin.loans.products.closed')}</dd>
    </dl>
  );
}
