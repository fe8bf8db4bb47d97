import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { Time } from '../wallet/WalletParts.tsx';
import { PublishedRules } from './PublishedRules.tsx';
import { EarnYieldPaid, HouseAccounts, ProofSummary } from './TransparencyAccounts.tsx';
import { useTransparency } from './useTransparency.ts';
import './transparency.css';

/**
 * The public transparency page (issue 22): the proof-of-liabilities snapshot, the platform's own
 * accounts with their results by day, the earn yield paid, and every published rule — each value
 * as `GET /home/transparency` answers it, which the server builds from the settings it enforces.
 */
export function TransparencyView() {
  const { t } = useI18n();
  const transparency = useTransparency();
  const data = transparency.data;
  return (
    <>
      <Card className="transparency-card">
        <div className="transparency-body" data-testid="transparency-intro">
          <p>{t('web.transparency.intro')}</p>
          {data && (
            <p className="field-hint" data-testid="transparency-generated-at" data-value={String(data.generatedAtMs)}>
              {t('web.transparency.generatedAt')} <Time iso={new Date(data.generatedAtMs).toISOString()} />
            </p>
          )}
        </div>
      </Card>
      <ProofSummary />
      {transparency.failed && <LoadFailedNotice onRetry={transparency.reload} />}
      {data === null ? (
        !transparency.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : (
        <>
          <HouseAccounts data={data} />
          <EarnYieldPaid data={data} />
          <PublishedRules rules={data.rules} />
        </>
      )}
    </>
  );
}
