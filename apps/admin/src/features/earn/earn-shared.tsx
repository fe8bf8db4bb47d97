import type { ContractData, EarnProductProposal, listStaffEarnProductsContract } from '@keel/contracts';
import { useI18n } from '../../shared/i18n.tsx';

export type StaffEarn = ContractData<typeof listStaffEarnProductsContract>;
export type StaffEarnProduct = StaffEarn['products'][number];

/** A rate as the server writes it ("0.3000"), without trailing zeros: "0.3". */
export function shortPercent(percent: string): string {
  return percent.includes('.') ? percent.replace(/0+$/, '').replace(/\.$/, '') : percent;
}

/** The terms a proposal would publish, every field of it, as a compact list. */
export function ProposalTerms({ proposal }: { proposal: EarnProductProposal }) {
  const { t } = useI18n();
  const asset = proposal.asset;
  return (
    <dl className="fields tick" data-testid="change-terms">
      <dt>{t('admin.earn.col.kind')}</dt>
      <dd data-testid="terms-kind">{t(`admin.earn.kind.${proposal.kind}`)}</dd>
      <dt>{t('admin.earn.col.name')}</dt>
      <dd data-testid="terms-name">{proposal.name}</dd>
      <dt>{t('admin.earn.col.dailyRate')}</dt>
      <dd data-testid="terms-rate">{t('admin.earn.percentPerDay', { percent: shortPercent(proposal.dailyRatePercent) })}</dd>
      <dt>{t('admin.earn.col.cycle')}</dt>
      <dd data-testid="terms-cycle">{t('admin.earn.days', { days: proposal.cycleDays })}</dd>
      <dt>{t('admin.earn.col.penalty')}</dt>
      <dd data-testid="terms-penalty">
        {proposal.earlyRedemption ? t('admin.earn.penaltyPerDay', { percent: shortPercent(proposal.penaltyRatePercent) }) : t('admin.earn.noEarlyRedemption')}
      </dd>
      <dt>{t('admin.earn.col.payoutTime')}</dt>
      <dd data-testid="terms-payout">{t('admin.earn.utc', { time: proposal.payoutTimeUtc })}</dd>
      <dt>{t('admin.earn.col.range')}</dt>
      <dd data-testid="terms-range">{t('admin.earn.range', { min: proposal.minAmount, max: proposal.maxAmount, asset })}</dd>
      <dt>{t('admin.earn.col.quotas')}</dt>
      <dd data-testid="terms-quotas">{t('admin.earn.quotas', { user: proposal.userQuota, total: proposal.totalQuota, asset })}</dd>
      <dt>{t('admin.earn.col.state')}</dt>
      <dd data-testid="terms-open">{t(proposal.open ? 'admin.earn.open' : 'admin.earn.closed')}</dd>
    </dl>
  );
}
