import { Link } from 'react-router';
import { verificationStatusContract } from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice, Notice, PageHeader } from '../../shared/ui/components.tsx';
import { ShieldIcon } from '../../shared/ui/icons.tsx';
import { intlLocale } from './countries.ts';
import { StateBadge, type VerificationStatus } from './VerificationState.tsx';
import '../auth/auth.css';

type Level = 'identity' | 'advanced';

function LevelCard({ level, status }: { level: Level; status: VerificationStatus }) {
  const { t } = useI18n();
  const item = status[level];
  const formPath = level === 'identity' ? '/person/identity' : '/person/advanced';
  const identityFirst = level === 'advanced' && status.identity.status !== 'verified';
  return (
    <Card>
      <div className="session-head">
        <h2 className="card-title">
          <ShieldIcon />
          {level === 'identity' ? t('web.verification.identityTitle') : t('web.verification.advancedTitle')}
        </h2>
        <StateBadge state={item.status} testId={`${level}-state`} />
      </div>
      <p className="muted">{level === 'identity' ? t('web.verification.identityAllows') : t('web.verification.advancedAllows')}</p>
      {item.submittedAt && <p className="muted">{t('web.verification.submittedAt', { time: formatDateTime(item.submittedAt) })}</p>}
      {item.reviewedAt && item.status !== 'in_review' && (
        <p className="muted">{t('web.verification.reviewedAt', { time: formatDateTime(item.reviewedAt) })}</p>
      )}
      {item.status === 'in_review' && <p>{t('web.verification.inReviewBody')}</p>}
      {item.status === 'rejected' && (
        <Notice tone="error" title={t('web.verification.rejectedTitle')} testId={`${level}-reject-reason`}>
          {item.rejectReason ?? ''}
        </Notice>
      )}
      {identityFirst && item.status === 'unverified' ? (
        <p className="muted" data-testid="advanced-needs-identity">
          {t('web.verification.identityFirst')}
        </p>
      ) : (
        (item.status === 'unverified' || item.status === 'rejected') && (
          <Link to={formPath} className="btn btn-primary btn-block" data-testid={`${level}-start`}>
            {item.status === 'rejected' ? t('web.verification.resubmit') : t('web.verification.start')}
          </Link>
        )
      )}
    </Card>
  );
}

/**
 * /person/authentication, the verification centre: the state of identity and advanced
 * verification (with the reviewer's reason after a rejection), the tier they give and its daily
 * withdrawal limit (a published rule from the tier policy).
 */
export function VerificationCentre() {
  const { t, locale } = useI18n();
  const query = useContractQuery(verificationStatusContract);
  const status = query.data;
  const failed = loadFailed(query);
  const amount = (text: string) => {
    try {
      return new Intl.NumberFormat(intlLocale(locale)).format(BigInt(text));
    } catch {
      return text;
    }
  };
  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.verification.centreTitle')} backTo="/my" />
      {failed && <LoadFailedNotice onRetry={() => void query.refetch()} />}
      {!status && !failed && <p className="muted">{t('web.common.loading')}</p>}
      {status && (
        <>
          <Card className="card-accent">
            <dl className="facts">
              <div>
                <dt>{t('web.verification.tier')}</dt>
                <dd data-testid="verification-tier">{t('web.verification.tierValue', { tier: status.tier })}</dd>
              </div>
              <div>
                <dt>{t('web.verification.dailyLimit')}</dt>
                <dd data-testid="withdrawal-limit">{t('web.verification.usdtAmount', { amount: amount(status.dailyWithdrawalLimitUsdt) })}</dd>
              </div>
            </dl>
            <p className="muted">{t('web.verification.tiersRule')}</p>
          </Card>
          <LevelCard level="identity" status={status} />
          <LevelCard level="advanced" status={status} />
        </>
      )}
    </div>
  );
}
