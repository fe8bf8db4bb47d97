import { type FundRequestView, listMyFundRequestsContract } from '@keel/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { FundPublishForm, PublishNotice } from './FundPublish.tsx';
import { FundFact, FundSwitch, RaisedProgress, RequestStatusBadge, useFundText } from './FundParts.tsx';
import { RequestState } from './FundRequestParts.tsx';
import { FUND_FALLBACK_POLL_MS, useFundOverview } from './useFund.ts';

/** One of the user's own requests, with where it stands. */
function MyRequestCard({ request }: { request: FundRequestView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <Card className="fund-card">
      <article data-testid={`fund-my-request-${request.id}`} data-request-no={request.requestNo} data-status={request.status} aria-labelledby={`fund-my-title-${request.id}`}>
        <div className="fund-head">
          <h3 className="card-title" id={`fund-my-title-${request.id}`}>
            {request.title}
          </h3>
          <RequestStatusBadge status={request.status} testId="fund-my-request-status" />
        </div>
        <p className="muted">
          <bdi dir="ltr">{request.requestNo}</bdi> · {text.time(request.publishedAtMs)}
        </p>
        <dl className="facts">
          <FundFact label={t('web.fund.amount')} testId="fund-my-request-amount" value={request.amount}>
            <Amount value={request.amount} unit="USDT" max={6} />
          </FundFact>
          <FundFact label={t('web.fund.terms')} testId="fund-my-request-terms">
            {t('web.fund.termsValue', { rate: text.percent(request.dailyRatePercent), days: t('web.fund.days', { count: request.termDays }) })}
          </FundFact>
          <FundFact label={t('web.fund.totalDue')} testId="fund-my-request-total" value={request.totalDue}>
            <Amount value={request.totalDue} unit="USDT" max={6} />
          </FundFact>
        </dl>
        {request.status === 'open' && (
          <>
            <RaisedProgress request={request} />
            {request.windowEndsAtMs !== null && <p className="muted">{t('web.fund.windowEnds', { time: text.time(request.windowEndsAtMs) })}</p>}
          </>
        )}
        <RequestState request={request} />
        <Link to={`/fund/pool/detail/${request.id}`} className="btn btn-secondary btn-block" data-testid="fund-my-request-link">
          {t('web.fund.hub.requestDetail', { no: request.requestNo })}
        </Link>
      </article>
    </Card>
  );
}

/** The user's funding requests, newest first, paged. */
function MyRequests() {
  const { t } = useI18n();
  const fallback = useFallbackPolling(FUND_FALLBACK_POLL_MS);
  const list = usePagedQuery(listMyFundRequestsContract, {}, { refetchInterval: fallback });
  return (
    <section className="fund-stack" aria-labelledby="fund-my-requests-title">
      <h2 className="earn-subtitle" id="fund-my-requests-title">
        {t('web.fund.hub.myRequests')}
      </h2>
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : list.data.items.length === 0 ? (
        <p className="muted" data-testid="fund-my-requests-empty">
          {t('web.fund.hub.noRequests')}
        </p>
      ) : (
        <div className="fund-stack" data-testid="fund-my-requests">
          {list.data.items.map((request) => (
            <MyRequestCard key={request.id} request={request} />
          ))}
        </div>
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="fund-my-requests" />}
    </section>
  );
}

/**
 * /fund: what the fund section is; the ways to the introduction, the pool and the user's
 * investments; the user's own funding requests with where each stands; and, with advanced
 * verification, the publish form (without it, what is needed and where to get it).
 */
export function FundHubView() {
  const { t } = useI18n();
  const text = useFundText();
  const overview = useFundOverview();
  const data = overview.data;
  const [published, setPublished] = useState<string | null>(null);
  return (
    <>
      <FundSwitch current="hub" />
      <div className="fund-text" data-testid="fund-about">
        <p>{t('web.fund.hub.about1')}</p>
        <p>{t('web.fund.hub.about2')}</p>
      </div>
      <div className="fund-links">
        <Link to="/fund/introduction" className="btn btn-secondary" data-testid="fund-link-introduction">
          {t('web.fund.nav.introduction')}
        </Link>
        <Link to="/fund/pool" className="btn btn-secondary" data-testid="fund-link-pool">
          {t('web.fund.nav.pool')}
        </Link>
        <Link to="/fund/investment" className="btn btn-secondary" data-testid="fund-link-investments">
          {t('web.fund.nav.investments')}
        </Link>
      </div>
      {published && <PublishNotice requestNo={published} />}
      <MyRequests />
      <Card className="fund-card">
        <h2 className="card-title" id="fund-publish-title">
          {t('web.fund.publish.heading')}
        </h2>
        {overview.failed && !data && <LoadFailedNotice onRetry={overview.reload} />}
        {data === null ? (
          !overview.failed && <p className="muted">{t('web.common.loading')}</p>
        ) : data.mayPublish ? (
          <>
            <p className="muted">{t('web.fund.publish.intro', { min: text.amount(data.policy.minAmount, 'USDT'), max: text.amount(data.policy.maxAmount, 'USDT') })}</p>
            <FundPublishForm overview={data} onPublished={setPublished} />
          </>
        ) : (
          <Notice tone="warning" testId="fund-publish-verify">
            <p>{t('web.fund.hub.verifyNeeded')}</p>
            <Link to="/person/authentication" data-testid="fund-publish-verify-link">
              {t('web.fund.hub.verifyLink')}
            </Link>
          </Notice>
        )}
      </Card>
    </>
  );
}
