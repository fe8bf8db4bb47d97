import { type LoanView, listLoansContract } from '@keel/contracts';
import { Link, useLocation, useSearchParams } from 'react-router';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice, Segmented } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { healthKeys, LoanFact, LoanSwitch, PriceText, statusKeys, useLoanText } from './LoanParts.tsx';

type Scope = 'open' | 'closed';

/** How often open loans (owed now, LTV) are asked again while the push connection is down. */
const OPEN_FALLBACK_POLL_MS = 60_000;

function LoanCard({ loan }: { loan: LoanView }) {
  const { t } = useI18n();
  const text = useLoanText();
  const passed = loan.status === 'passed';
  return (
    <Card className="loans-card">
      <article data-testid={`loan-${loan.id}`} data-loan-no={loan.loanNo} data-status={loan.status} aria-labelledby={`loan-title-${loan.id}`}>
        <h2 className="card-title" id={`loan-title-${loan.id}`}>
          <span data-testid="loan-name">{loan.productName}</span>{' '}
          <span className={`badge badge-${loan.status}`} data-testid="loan-status" data-status={loan.status}>
            {t(statusKeys[loan.status])}
          </span>
        </h2>
        <p className="muted">
          <bdi dir="ltr">{loan.loanNo}</bdi> · {text.time(loan.appliedAtMs)}
        </p>
        {loan.health === 'margin_call' && (
          <Notice tone="warning" testId="loan-margin-call">
            {t('web.loans.list.marginCallWarning', {
              ltv: text.percent(loan.ltvPercent ?? '0'),
              liquidation: text.percent(loan.liquidationLtvPercent),
              price: loan.liquidationPrice === null ? '—' : text.amount(loan.liquidationPrice, 'USDT'),
            })}
          </Notice>
        )}
        {loan.health === 'liquidate' && (
          <Notice tone="error" testId="loan-liquidating">
            {t('web.loans.list.liquidatingWarning')}
          </Notice>
        )}
        <dl className="facts">
          <LoanFact label={t('web.loans.amount')} testId="loan-amount" value={loan.amount}>
            <Amount value={loan.amount} unit="USDT" max={6} />
          </LoanFact>
          <LoanFact label={t('web.loans.list.terms')} testId="loan-terms">
            {t('web.loans.list.termsValue', { days: t('web.loans.days', { count: loan.cycleDays }), rate: text.percent(loan.dailyRatePercent) })}
          </LoanFact>
          <LoanFact label={t('web.loans.totalDue')} testId="loan-total-due" value={loan.totalDue}>
            <Amount value={loan.totalDue} unit="USDT" max={6} />
          </LoanFact>
          <LoanFact label={t('web.loans.collateral')} testId="loan-collateral" value={loan.collateralAmount}>
            {text.amount(loan.collateralAmount, loan.collateralAsset)}
          </LoanFact>
          {loan.status === 'pending' && (
            <LoanFact label={t('web.loans.list.review')} testId="loan-approvals" value={String(loan.approvals)}>
              {t('web.loans.list.approvals', { approvals: loan.approvals, required: loan.approvalsRequired })}
            </LoanFact>
          )}
          {passed && (
            <>
              <div className="facts-strong">
                <dt>{t('web.loans.owedNow')}</dt>
                <dd data-testid="loan-owed-now" data-value={loan.owedNow ?? ''}>
                  {loan.owedNow === null ? '—' : <Amount value={loan.owedNow} unit="USDT" max={6} />}{' '}
                  {loan.daysBegun !== null && <span className="muted">{t('web.loans.list.daysBegun', { count: loan.daysBegun })}</span>}
                </dd>
              </div>
              <LoanFact label={t('web.loans.list.dueAt')} testId="loan-due-at" value={loan.dueAtMs === null ? '' : String(loan.dueAtMs)}>
                {loan.dueAtMs === null ? '—' : text.time(loan.dueAtMs)}
              </LoanFact>
              <LoanFact label={t('web.loans.list.ltv')} testId="loan-ltv" value={loan.ltvPercent ?? ''}>
                {loan.ltvPercent === null ? '—' : text.percent(loan.ltvPercent)}{' '}
                {loan.health && (
                  <span className={`badge badge-${loan.health}`} data-testid="loan-health" data-health={loan.health}>
                    {t(healthKeys[loan.health])}
                  </span>
                )}
              </LoanFact>
              <LoanFact label={t('web.loans.list.thresholds')} testId="loan-thresholds">
                {t('web.loans.list.thresholdsValue', { marginCall: text.percent(loan.marginCallLtvPercent), liquidation: text.percent(loan.liquidationLtvPercent) })}
              </LoanFact>
              {loan.marginCallPrice !== null && (
                <LoanFact label={t('web.loans.marginCallPrice')} testId="loan-margin-call-price" value={loan.marginCallPrice}>
                  {text.amount(loan.marginCallPrice, 'USDT')}
                </LoanFact>
              )}
              {loan.liquidationPrice !== null && (
                <LoanFact label={t('web.loans.liquidationPrice')} testId="loan-liquidation-price" value={loan.liquidationPrice}>
                  {text.amount(loan.liquidationPrice, 'USDT')}
                </LoanFact>
              )}
              <LoanFact label={t('web.loans.collateralPrice')} testId="loan-price">
                <PriceText price={loan.price} />
              </LoanFact>
              <LoanFact label={t('web.loans.list.repaid')} testId="loan-repaid" value={loan.repaid}>
                <Amount value={loan.repaid} unit="USDT" max={6} />
              </LoanFact>
            </>
          )}
          {(loan.status === 'repaid' || loan.status === 'liquidated') && (
            <>
              <LoanFact label={t('web.loans.list.repaidTotal')} testId="loan-repaid-total" value={loan.repaid}>
                <Amount value={loan.repaid} unit="USDT" max={6} />
              </LoanFact>
              <LoanFact label={t('web.loans.list.interestPaid')} testId="loan-interest-paid" value={loan.interestPaid}>
                <Amount value={loan.interestPaid} unit="USDT" max={6} />
              </LoanFact>
            </>
          )}
          {loan.status === 'rejected' && (
            <LoanFact label={t('web.loans.list.rejectReason')} testId="loan-reject-reason" value={loan.rejectReason ?? ''}>
              {loan.rejectReason ?? t('web.loans.list.noReason')}
            </LoanFact>
          )}
          {loan.closedAtMs !== null && (
            <LoanFact label={t('web.loans.list.closedAt')} testId="loan-closed-at" value={String(loan.closedAtMs)}>
              {text.time(loan.closedAtMs)}
            </LoanFact>
          )}
        </dl>
        {loan.liquidation && (
          <div data-testid="loan-liquidation" data-kind={loan.liquidation.kind} data-tick-id={loan.liquidation.tickId ?? ''} data-price={loan.liquidation.price}>
            <h3 className="earn-subtitle">{t('web.loans.list.liquidationTitle')}</h3>
            <p>
              {t(loan.liquidation.kind === 'due' ? 'web.loans.list.liquidationDue' : 'web.loans.list.liquidationPrice', {
                sold: text.amount(loan.liquidation.sold, loan.collateralAsset),
                price: text.amount(loan.liquidation.price, 'USDT'),
                tick: loan.liquidation.tickId ?? '—',
                repaid: text.amount(loan.liquidation.repaid, 'USDT'),
                released: text.amount(loan.liquidation.released, loan.collateralAsset),
              })}
            </p>
            {!/^0(\.0+)?$/.test(loan.liquidation.shortfall) && (
              <p className="field-hint" data-testid="loan-shortfall" data-value={loan.liquidation.shortfall}>
                {t('web.loans.list.shortfall', { shortfall: text.amount(loan.liquidation.shortfall, 'USDT') })}
              </p>
            )}
          </div>
        )}
        {passed && (
          <Link to={`/person/loanBack?loanId=${loan.id}`} className="btn btn-primary btn-block" data-testid="loan-repay-link">
            {t('web.loans.list.repay', { no: loan.loanNo })}
          </Link>
        )}
      </article>
    </Card>
  );
}

/**
 * /person/loanList: the user's loans, open (pending review, passed) or closed (rejected, repaid,
 * liquidated; `?scope=closed`), each with its status, amount, total due, owed now, due date, LTV
 * and health with a margin-call warning, the liquidation with its tick and price, the reject reason.
 */
export function LoanListView() {
  const { t } = useI18n();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const scope: Scope = params.get('scope') === 'closed' ? 'closed' : 'open';
  // A decision, a repayment or a liquidation comes as the `loan` push event (cache-sync.ts); while
  // the push connection is down, open loans are asked again every minute.
  const fallback = useFallbackPolling(OPEN_FALLBACK_POLL_MS);
  const list = usePagedQuery(listLoansContract, { scope }, { refetchInterval: scope === 'open' ? fallback : false });
  const applied = (location.state as { applied?: string } | null)?.applied;
  return (
    <>
      <LoanSwitch current="list" />
      {applied && <Notice testId="loan-applied">{t('web.loans.list.applied', { no: applied })}</Notice>}
      <Segmented
        label={t('web.loans.nav.list')}
        value={scope}
        onChange={(value) => setParams(value === 'closed' ? { scope: 'closed' } : {})}
        options={[
          { value: 'open', label: t('web.loans.list.open'), testId: 'loan-scope-open' },
          { value: 'closed', label: t('web.loans.list.closed'), testId: 'loan-scope-closed' },
        ]}
      />
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : list.data.items.length === 0 ? (
        <p className="muted" data-testid="loans-empty">
          {t(scope === 'open' ? 'web.loans.list.noneOpen' : 'web.loans.list.noneClosed')}
        </p>
      ) : (
        <div className="loans-stack" data-testid={`loans-${scope}`}>
          {list.data.items.map((loan) => (
            <LoanCard key={loan.id} loan={loan} />
          ))}
        </div>
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="loans" />}
    </>
  );
}
