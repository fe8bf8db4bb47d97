import { ApiError, type FundInvestmentView, listFundInvestmentsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { Link, useLocation } from 'react-router';
import { isSessionError } from '../../shared/api/client.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { FundFact, FundSwitch, investmentStatusKeys, RequestStatusBadge, useFundText } from './FundParts.tsx';
import { RequestState, ScheduleTable } from './FundRequestParts.tsx';
import { FUND_FALLBACK_POLL_MS, useFundInvestment, useFundRequest } from './useFund.ts';

const explainKeys: Record<FundInvestmentView['status'], MessageKey> = {
  held: 'web.fund.investment.explainHeld',
  invested: 'web.fund.investment.explainInvested',
  refunded: 'web.fund.investment.explainRefunded',
};

/** The investment's own status as a badge (`data-status` holds the code). */
function InvestmentStatusBadge({ status }: { status: FundInvestmentView['status'] }) {
  const { t } = useI18n();
  return (
    <span className={`badge fund-investment-${status}`} data-testid="fund-investment-status" data-status={status}>
      {t(investmentStatusKeys[status])}
    </span>
  );
}

/** An investment's facts: amount, status of the request, expected return, due date, paid. */
function InvestmentFacts({ investment }: { investment: FundInvestmentView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <dl className="facts">
      <FundFact label={t('web.fund.invest.amount')} testId="fund-investment-amount" value={investment.amount}>
        <Amount value={investment.amount} unit="USDT" max={6} />
      </FundFact>
      <FundFact label={t('web.fund.investment.requestStatus')} testId="fund-investment-request-status-fact">
        <RequestStatusBadge status={investment.requestStatus} testId="fund-investment-request-status" />
      </FundFact>
      <FundFact label={t('web.fund.terms')} testId="fund-investment-terms">
        {t('web.fund.termsValue', { rate: text.percent(investment.dailyRatePercent), days: t('web.fund.days', { count: investment.termDays }) })}
      </FundFact>
      <FundFact label={t('web.fund.expectedReturn')} testId="fund-investment-expected" value={investment.expectedReturn}>
        <Amount value={investment.expectedReturn} unit="USDT" max={6} />
      </FundFact>
      <FundFact label={t('web.fund.dueAt')} testId="fund-investment-due" value={investment.dueAtMs === null ? '' : String(investment.dueAtMs)}>
        {investment.dueAtMs === null ? t('web.fund.investment.dueAfterFill') : text.time(investment.dueAtMs)}
      </FundFact>
      <div className="facts-strong">
        <dt>{t('web.fund.investment.paid')}</dt>
        <dd data-testid="fund-investment-paid" data-value={investment.paid ?? ''}>
          {investment.paid === null ? t('web.fund.investment.notPaid') : <Amount value={investment.paid} unit="USDT" max={6} />}
        </dd>
      </div>
    </dl>
  );
}

function InvestmentCard({ investment }: { investment: FundInvestmentView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <Card className="fund-card">
      <article
        data-testid={`fund-investment-${investment.id}`}
        data-investment-no={investment.investmentNo}
        data-status={investment.status}
        data-request-status={investment.requestStatus}
        data-paid={investment.paid ?? ''}
        aria-labelledby={`fund-investment-title-${investment.id}`}
      >
        <div className="fund-head">
          <h2 className="card-title" id={`fund-investment-title-${investment.id}`}>
            {investment.title}
          </h2>
          <InvestmentStatusBadge status={investment.status} />
        </div>
        <p className="muted">
          <bdi dir="ltr">{investment.investmentNo}</bdi> · {text.time(investment.investedAtMs)}
        </p>
        <InvestmentFacts investment={investment} />
        <Link to={`/fund/investment/detail/${investment.id}`} className="btn btn-secondary btn-block" data-testid="fund-investment-link">
          {t('web.fund.investment.detail', { no: investment.investmentNo })}
        </Link>
      </article>
    </Card>
  );
}

/** /fund/investment: the user's investments, newest first, with what has been paid. */
export function FundInvestmentsView() {
  const { t } = useI18n();
  const fallback = useFallbackPolling(FUND_FALLBACK_POLL_MS);
  const list = usePagedQuery(listFundInvestmentsContract, {}, { refetchInterval: fallback });
  return (
    <>
      <FundSwitch current="investment" />
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : list.data.items.length === 0 ? (
        <div className="fund-text">
          <p className="muted" data-testid="fund-investments-empty">
            {t('web.fund.investment.none')}
          </p>
          <Link to="/fund/pool" className="btn btn-primary" data-testid="fund-investments-to-pool">
            {t('web.fund.nav.pool')}
          </Link>
        </div>
      ) : (
        <div className="fund-stack" data-testid="fund-investments">
          {list.data.items.map((investment) => (
            <InvestmentCard key={investment.id} investment={investment} />
          ))}
        </div>
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="fund-investments" />}
    </>
  );
}

/** The request an investment is in: its schedule and settlement. */
function InvestmentRequest({ requestId }: { requestId: string }) {
  const { t } = useI18n();
  const request = useFundRequest(requestId);
  if (request.failed && !request.data) return <LoadFailedNotice onRetry={request.reload} />;
  if (!request.data) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <Card className="fund-card">
      <h2 className="card-title">{t('web.fund.investment.requestTitle', { no: request.data.requestNo })}</h2>
      <ScheduleTable request={request.data} />
      <RequestState request={request.data} />
      <Link to={`/fund/pool/detail/${requestId}`} data-testid="fund-investment-request-link">
        {t('web.fund.investment.requestLink')}
      </Link>
    </Card>
  );
}

/** /fund/investment/detail/{id}: one investment, its journal entries, its request's schedule and settlement. */
export function FundInvestmentDetailView({ investmentId }: { investmentId: string }) {
  const { t, tServer } = useI18n();
  const text = useFundText();
  const location = useLocation();
  const investment = useFundInvestment(investmentId);
  const invested = (location.state as { invested?: string } | null)?.invested;
  const data = investment.data;
  if (investment.error instanceof ApiError && !isSessionError(investment.error) && !data) {
    return (
      <Notice tone="error" title={tServer(investment.error.message)} testId="fund-investment-missing">
        <Link to="/fund/investment">{t('web.fund.nav.investments')}</Link>
      </Notice>
    );
  }
  if (investment.failed && !data) return <LoadFailedNotice onRetry={investment.reload} />;
  if (!data) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <div className="fund-stack" data-testid="fund-investment" data-investment-id={data.id} data-status={data.status} data-paid={data.paid ?? ''}>
      {invested && <Notice testId="fund-invested">{t('web.fund.invest.done', { no: invested })}</Notice>}
      <Card className="fund-card">
        <div className="fund-head">
          <h2 className="card-title">{data.title}</h2>
          <InvestmentStatusBadge status={data.status} />
        </div>
        <p className="muted">
          <bdi dir="ltr">{data.investmentNo}</bdi> · {text.time(data.investedAtMs)}
        </p>
        <p data-testid="fund-investment-explained">{t(explainKeys[data.status])}</p>
        <InvestmentFacts investment={data} />
        <dl className="facts">
          <FundFact label={t('web.fund.investment.entry')} testId="fund-investment-entry" value={data.entryId}>
            <bdi dir="ltr">#{data.entryId}</bdi>
          </FundFact>
          <FundFact label={t('web.fund.investment.paidEntry')} testId="fund-investment-paid-entry" value={data.paidEntryId ?? ''}>
            {data.paidEntryId === null ? '—' : <bdi dir="ltr">#{data.paidEntryId}</bdi>}
          </FundFact>
        </dl>
        <Link to="/assets/records" data-testid="fund-investment-records">
          {t('web.fund.investment.records')}
        </Link>
      </Card>
      <InvestmentRequest requestId={data.requestId} />
    </div>
  );
}
