import { ApiError, type FundRequestView, investFundContract, listFundPoolContract } from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, Segmented, TextField } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { type Refused, refusedBy, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { investEstimate, isZero } from './fund-figures.ts';
import { fundProblems, investFormSchema } from './fund-form.ts';
import { describeFundRefusal } from './fund-refusal.ts';
import { borrowerTypeKeys, FundFact, FundPasswordSheet, FundRefusalNotice, FundSwitch, RaisedProgress, Ratings, RequestStatusBadge, useFundText } from './FundParts.tsx';
import { RequestCollateral, RequestRatings, RequestState, RequestTerms, ScheduleTable } from './FundRequestParts.tsx';
import { FUND_FALLBACK_POLL_MS, type FundOverviewData, fundChanged, useFundOverview, useFundRequest } from './useFund.ts';

type Scope = 'open' | 'funded';

/** A request in the pool list. */
function PoolItem({ request }: { request: FundRequestView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <Card className="fund-card">
      <article data-testid={`fund-pool-item-${request.id}`} data-request-no={request.requestNo} data-status={request.status} aria-labelledby={`fund-pool-title-${request.id}`}>
        <div className="fund-head">
          <h2 className="card-title" id={`fund-pool-title-${request.id}`}>
            {request.title}
          </h2>
          <Ratings request={request} />
        </div>
        <p className="muted" data-testid="fund-pool-borrower" data-type={request.borrowerType}>
          {t('web.fund.borrowerValue', { name: request.borrower, type: t(borrowerTypeKeys[request.borrowerType]) })}
        </p>
        <dl className="facts">
          <FundFact label={t('web.fund.amount')} testId="fund-pool-amount" value={request.amount}>
            <Amount value={request.amount} unit="USDT" max={6} />
          </FundFact>
          <FundFact label={t('web.fund.dailyRate')} testId="fund-pool-rate" value={request.dailyRatePercent}>
            {text.percent(request.dailyRatePercent)}
          </FundFact>
          <FundFact label={t('web.fund.term')} testId="fund-pool-term" value={String(request.termDays)}>
            {t('web.fund.days', { count: request.termDays })}
          </FundFact>
          {request.windowEndsAtMs !== null && request.status === 'open' && (
            <FundFact label={t('web.fund.windowEndsLabel')} testId="fund-pool-window-end" value={String(request.windowEndsAtMs)}>
              {text.time(request.windowEndsAtMs)}
            </FundFact>
          )}
          {request.dueAtMs !== null && (
            <FundFact label={t('web.fund.dueAt')} testId="fund-pool-due" value={String(request.dueAtMs)}>
              {text.time(request.dueAtMs)}
            </FundFact>
          )}
        </dl>
        <RaisedProgress request={request} />
        <Link to={`/fund/pool/detail/${request.id}`} className="btn btn-primary btn-block" data-testid="fund-pool-item-link">
          {request.status === 'open' && !request.mine ? t('web.fund.pool.invest', { title: request.title }) : t('web.fund.pool.view', { title: request.title })}
        </Link>
      </article>
    </Card>
  );
}

/** /fund/pool: the requests taking investments (soonest window end first) or funded (`?scope=funded`). */
export function FundPoolView() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const scope: Scope = params.get('scope') === 'funded' ? 'funded' : 'open';
  const fallback = useFallbackPolling(FUND_FALLBACK_POLL_MS);
  const list = usePagedQuery(listFundPoolContract, { scope }, { refetchInterval: scope === 'open' ? fallback : false });
  return (
    <>
      <FundSwitch current="pool" />
      <Segmented
        label={t('web.fund.nav.pool')}
        value={scope}
        onChange={(value) => setParams(value === 'funded' ? { scope: 'funded' } : {})}
        options={[
          { value: 'open', label: t('web.fund.pool.open'), testId: 'fund-pool-scope-open' },
          { value: 'funded', label: t('web.fund.pool.funded'), testId: 'fund-pool-scope-funded' },
        ]}
      />
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : list.data.items.length === 0 ? (
        <p className="muted" data-testid="fund-pool-empty">
          {t(scope === 'open' ? 'web.fund.pool.noneOpen' : 'web.fund.pool.noneFunded')}
        </p>
      ) : (
        <div className="fund-stack" data-testid={`fund-pool-${scope}`}>
          {list.data.items.map((request) => (
            <PoolItem key={request.id} request={request} />
          ))}
        </div>
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="fund-pool" />}
    </>
  );
}

/** The invest form of an open request: the amount, the expected return pro rata, the payment password. */
function InvestForm({ request, overview }: { request: FundRequestView; overview: FundOverviewData }) {
  const { t } = useI18n();
  const text = useFundText();
  const navigate = useNavigate();
  const errorText = useMoneyErrorText();
  const format = useRefusalFormat();
  const actionKey = useActionKey();
  const available = overview.balances.find((each) => each.asset === 'USDT')?.available;
  const minInvestment = overview.policy.minInvestment;
  const limits = useRef({ available, remaining: request.remaining, amount: request.amount, totalDue: request.totalDue, minInvestment });
  limits.current = { available, remaining: request.remaining, amount: request.amount, totalDue: request.totalDue, minInvestment };
  const schema = useMemo(() => investFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { amount: '' } });
  const amount = normaliseAmountInput(form.watch('amount') ?? '');
  const estimate = investEstimate(request, amount, minInvestment);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const invest = useContractMutation(investFundContract, { invalidates: fundChanged });

  const proceed = form.handleSubmit((values) => {
    setRefused(null);
    setConfirming(values.amount);
  });

  async function confirm(paymentPassword: string): Promise<boolean> {
    if (confirming === null) return false;
    setRefused(null);
    const key = actionKey.keyFor(JSON.stringify({ requestId: request.id, amount: confirming }));
    try {
      const investment = await invest.mutateAsync({ params: { requestId: request.id }, body: { amount: confirming, paymentPassword }, idempotencyKey: key });
      actionKey.settle();
      navigate(`/fund/investment/detail/${investment.id}`, { state: { invested: investment.investmentNo } });
      return true;
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return true;
      const answer = refusedBy(error);
      setRefused(answer);
      const refusal = describeFundRefusal(answer.message, answer.data, format, 'invest');
      if (refusal.field === 'amount' || refusal.reload || refusal.errorKey === 'FUND_OWN_REQUEST') setConfirming(null);
      return false;
    }
  }

  const own = {
    [fundProblems.tooSmall]: t('web.fund.invest.tooSmall', { min: text.amount(minInvestment, 'USDT'), remaining: text.amount(request.remaining, 'USDT') }),
    [fundProblems.overRemaining]: t('web.fund.invest.overRemaining', { remaining: text.amount(request.remaining, 'USDT') }),
  };

  return (
    <Card className="fund-card">
      <h2 className="card-title">{t('web.fund.invest.heading')}</h2>
      <form className="options-form" onSubmit={(event) => event.preventDefault()} noValidate aria-label={t('web.fund.invest.form')} data-testid="fund-invest-form">
        <div className="amount-field">
          <TextField
            label={t('web.fund.invest.amount')}
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            placeholder={t('web.fund.invest.placeholder', { min: text.amount(minInvestment, 'USDT'), remaining: text.amount(request.remaining, 'USDT') })}
            data-testid="fund-invest-amount"
            {...form.register('amount')}
            error={errorText(form.formState.errors.amount, { required: t('web.fund.invest.amountRequired'), own, asset: 'USDT', scale: 6 })}
          />
          <div className="amount-meta">
            <span className="muted">
              {t('web.fund.available')} <Amount value={available ?? '0'} unit="USDT" max={6} testId="fund-invest-available" />
            </span>
            <Button variant="ghost" className="btn-small" data-testid="fund-invest-fill" onClick={() => form.setValue('amount', request.remaining, { shouldValidate: true })}>
              {t('web.fund.invest.fillRest', { remaining: text.amount(request.remaining, 'USDT') })}
            </Button>
          </div>
        </div>
        <dl className="facts">
          <div className="facts-strong">
            <dt>{t('web.fund.expectedReturn')}</dt>
            <dd data-testid="fund-invest-expected" data-value={estimate.expectedReturn ?? ''}>
              {estimate.expectedReturn === null
                ? '—'
                : t('web.fund.invest.expectedValue', {
                    amount: text.amount(amount, 'USDT'),
                    total: text.amount(request.totalDue, 'USDT'),
                    asked: text.amount(request.amount, 'USDT'),
                    expected: text.amount(estimate.expectedReturn, 'USDT'),
                  })}
            </dd>
          </div>
        </dl>
        <p className="field-hint">{t('web.fund.invest.note')}</p>
        {refused && confirming === null && <FundRefusalNotice refused={refused} action="invest" testId="fund-invest-error" />}
        <Button block onClick={() => void proceed()} data-testid="fund-invest-submit">
          {t('web.fund.invest.submit')}
        </Button>
      </form>
      {confirming !== null && (
        <FundPasswordSheet
          title={t('web.fund.invest.confirmTitle')}
          testId="fund-invest-sheet"
          submitLabel={t('web.fund.invest.confirmSubmit')}
          action="invest"
          busy={invest.isPending || invest.isSuccess}
          refused={refused}
          onConfirm={confirm}
          onEdit={() => setRefused(null)}
          onClose={() => setConfirming(null)}
        >
          <dl className="facts">
            <FundFact label={t('web.fund.invest.amount')} testId="fund-invest-sheet-amount" value={confirming}>
              {text.amount(confirming, 'USDT')}
            </FundFact>
            <FundFact label={t('web.fund.expectedReturn')} testId="fund-invest-sheet-expected" value={investEstimate(request, confirming, minInvestment).expectedReturn ?? ''}>
              {text.amount(investEstimate(request, confirming, minInvestment).expectedReturn ?? '0', 'USDT')}
            </FundFact>
          </dl>
          <p className="field-hint fund-sheet-note">{t('web.fund.invest.confirmNote')}</p>
        </FundPasswordSheet>
      )}
    </Card>
  );
}

/**
 * /fund/pool/detail/{id}: one request — terms, release schedule, collateral and the price it was
 * valued at with its tick, the ratings with how they are computed, progress and where it stands —
 * and, while it is open and not the user's own, the invest form.
 */
export function FundRequestDetailView({ requestId }: { requestId: string }) {
  const { t, tServer } = useI18n();
  const text = useFundText();
  const request = useFundRequest(requestId);
  const overview = useFundOverview();
  const data = request.data;
  if (request.error instanceof ApiError && !isSessionError(request.error) && !data) {
    return (
      <Notice tone="error" title={tServer(request.error.message)} testId="fund-request-missing">
        <Link to="/fund/pool">{t('web.fund.nav.pool')}</Link>
      </Notice>
    );
  }
  if (request.failed && !data) return <LoadFailedNotice onRetry={request.reload} />;
  if (!data) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <div className="fund-stack" data-testid="fund-request" data-request-id={data.id} data-status={data.status} data-mine={String(data.mine)}>
      <Card className="fund-card">
        <div className="fund-head">
          <h2 className="card-title" data-testid="fund-request-title">
            {data.title}
          </h2>
          <RequestStatusBadge status={data.status} />
        </div>
        <p className="muted">
          <bdi dir="ltr">{data.requestNo}</bdi>
        </p>
        <p className="fund-purpose" data-testid="fund-request-purpose">
          {data.purpose}
        </p>
        {(data.status === 'open' || data.status === 'funded') && <RaisedProgress request={data} />}
        {!isZero(data.myInvestment) && (
          <p data-testid="fund-request-my-investment" data-value={data.myInvestment}>
            {t('web.fund.request.myInvestment', { amount: text.amount(data.myInvestment, 'USDT') })}
          </p>
        )}
        <RequestTerms request={data} />
      </Card>
      <Card className="fund-card">
        <h2 className="card-title">{t('web.fund.request.collateralTitle')}</h2>
        <RequestCollateral request={data} />
      </Card>
      <Card className="fund-card">
        <h2 className="card-title">{t('web.fund.request.ratingsTitle')}</h2>
        <RequestRatings request={data} />
        <p className="field-hint">{t('web.fund.request.ratingsNote')}</p>
        <Link to="/fund/introduction/detail/ratings" data-testid="fund-request-ratings-rules">
          {t('web.fund.request.ratingsRules')}
        </Link>
      </Card>
      <Card className="fund-card">
        <ScheduleTable request={data} />
        <RequestState request={data} />
      </Card>
      {data.status === 'open' && data.mine && (
        <Notice testId="fund-request-own">
          <p>{t('web.fund.request.own')}</p>
        </Notice>
      )}
      {data.status === 'open' && !data.mine && overview.data && <InvestForm key={data.id} request={data} overview={overview.data} />}
      {data.status === 'open' && !data.mine && overview.failed && !overview.data && <LoadFailedNotice onRetry={overview.reload} />}
    </div>
  );
}
