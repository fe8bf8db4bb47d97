import type { FundRequestView } from '@keel/contracts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { isZero, trancheAfterDays } from './fund-figures.ts';
import { borrowerTypeKeys, FundFact, FundPriceText, UsdtFact, useFundText } from './FundParts.tsx';

/** A request's terms: amount, rate, term, interest, total due, tranches, window, collateral, credit limit. */
export function RequestTerms({ request }: { request: FundRequestView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <dl className="facts" data-testid="fund-request-terms">
      <FundFact label={t('web.fund.borrower')} testId="fund-request-borrower" value={request.borrower}>
        {t('web.fund.borrowerValue', { name: request.borrower, type: t(borrowerTypeKeys[request.borrowerType]) })}
      </FundFact>
      <UsdtFact label={t('web.fund.amount')} value={request.amount} testId="fund-request-amount" />
      <FundFact label={t('web.fund.dailyRate')} testId="fund-request-rate" value={request.dailyRatePercent}>
        {text.percent(request.dailyRatePercent)}
      </FundFact>
      <FundFact label={t('web.fund.term')} testId="fund-request-term" value={String(request.termDays)}>
        {t('web.fund.days', { count: request.termDays })}
      </FundFact>
      <FundFact label={t('web.fund.interest')} testId="fund-request-interest" value={request.interest}>
        {t('web.fund.publish.interestValue', {
          amount: text.amount(request.amount, 'USDT'),
          rate: text.percent(request.dailyRatePercent),
          days: t('web.fund.days', { count: request.termDays }),
          interest: text.amount(request.interest, 'USDT'),
        })}
      </FundFact>
      <div className="facts-strong">
        <dt>{t('web.fund.totalDue')}</dt>
        <dd data-testid="fund-request-total" data-value={request.totalDue}>
          <Amount value={request.totalDue} unit="USDT" max={6} />
        </dd>
      </div>
      <FundFact label={t('web.fund.tranches')} testId="fund-request-tranches" value={String(request.tranches)}>
        {request.tranches === 1
          ? t('web.fund.tranchesOne')
          : t('web.fund.tranchesValue', { count: request.tranches, period: t('web.fund.days', { count: request.releasePeriodDays }) })}
      </FundFact>
      <FundFact label={t('web.fund.window')} testId="fund-request-window" value={String(request.windowHours)}>
        {t('web.fund.hours', { count: request.windowHours })}
        {request.windowEndsAtMs !== null && <> · {t('web.fund.windowEnds', { time: text.time(request.windowEndsAtMs) })}</>}
      </FundFact>
    </dl>
  );
}

/** The collateral, the price it was valued at (with its tick) and the credit limit that follows. */
export function RequestCollateral({ request }: { request: FundRequestView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <dl className="facts" data-testid="fund-request-collateral-facts">
      <FundFact label={t('web.fund.collateral')} testId="fund-request-collateral" value={request.collateralAmount}>
        {text.amount(request.collateralAmount, request.collateralAsset)}
      </FundFact>
      <FundFact label={t('web.fund.publishedPrice')} testId="fund-request-price-fact">
        <FundPriceText price={request.publishedPrice} asset={request.collateralAsset} testId="fund-request-price" />
      </FundFact>
      <FundFact label={t('web.fund.creditLimit')} testId="fund-request-credit-limit" value={request.creditLimit}>
        {t('web.fund.creditLimitRule', { ltv: text.percent(request.collateralLtvPercent), limit: text.amount(request.creditLimit, 'USDT') })}
      </FundFact>
    </dl>
  );
}

/** The two ratings with how each is computed from its input. */
export function RequestRatings({ request }: { request: FundRequestView }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <dl className="facts" data-testid="fund-request-ratings">
      <FundFact label={t('web.fund.rating.credit')} testId="fund-request-credit-rating" value={request.creditRating}>
        {t('web.fund.rating.creditExplained', { score: request.creditScore, rating: request.creditRating })}
      </FundFact>
      <FundFact label={t('web.fund.rating.investment')} testId="fund-request-investment-rating" value={request.investmentRating}>
        {t('web.fund.rating.investmentExplained', { cover: text.percent(request.collateralCoverPercent), rating: request.investmentRating })}
      </FundFact>
    </dl>
  );
}

/** The release schedule: each tranche's amount, when it is (or was) due, and whether it was released. */
export function ScheduleTable({ request, testId = 'fund-request-schedule' }: { request: FundRequestView; testId?: string }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <table className="fund-table" data-testid={testId}>
      <caption className="earn-subtitle">{t('web.fund.schedule.title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('web.fund.schedule.tranche')}</th>
          <th scope="col">{t('web.fund.schedule.amount')}</th>
          <th scope="col">{t('web.fund.schedule.when')}</th>
        </tr>
      </thead>
      <tbody>
        {request.schedule.map((tranche) => {
          const after = trancheAfterDays(request, tranche);
          return (
            <tr
              key={tranche.number}
              data-testid={`fund-tranche-${tranche.number}`}
              data-amount={tranche.amount}
              data-released={tranche.releasedAtMs === null ? 'false' : 'true'}
              data-entry-id={tranche.entryId ?? ''}
            >
              <td>{tranche.number}</td>
              <td>
                <Amount value={tranche.amount} unit="USDT" max={6} />
              </td>
              <td>
                {tranche.releasedAtMs !== null
                  ? t('web.fund.schedule.releasedAt', { time: text.time(tranche.releasedAtMs) })
                  : tranche.releaseAtMs !== null
                    ? t('web.fund.schedule.dueAt', { time: text.time(tranche.releaseAtMs) })
                    : after === 0
                      ? t('web.fund.schedule.atFill')
                      : t('web.fund.schedule.afterDays', { count: after })}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Where a request stands: released so far and the due date once funded; the settlement once closed. */
export function RequestState({ request }: { request: FundRequestView }) {
  const { t } = useI18n();
  const text = useFundText();
  const settlement = request.settlement;
  return (
    <div className="fund-text" data-testid="fund-request-state" data-status={request.status}>
      {request.status === 'review' && <p data-testid="fund-request-review">{t('web.fund.state.review')}</p>}
      {request.status === 'rejected' && (
        <p data-testid="fund-request-reject-reason" data-value={request.rejectReason ?? ''}>
          {t('web.fund.state.rejected', { reason: request.rejectReason ?? t('web.fund.state.noReason') })}
        </p>
      )}
      {request.status === 'expired' && <p data-testid="fund-request-expired">{t('web.fund.state.expired')}</p>}
      {(request.status === 'funded' || request.status === 'repaid' || request.status === 'defaulted') && (
        <dl className="facts">
          <UsdtFact label={t('web.fund.released')} value={request.released} testId="fund-request-released" />
          {request.dueAtMs !== null && (
            <FundFact label={t('web.fund.dueAt')} testId="fund-request-due" value={String(request.dueAtMs)}>
              {text.time(request.dueAtMs)}
            </FundFact>
          )}
          <FundFact label={t('web.fund.investors')} testId="fund-request-investors" value={String(request.investors)}>
            {request.investors}
          </FundFact>
        </dl>
      )}
      {settlement && (
        <div
          data-testid="fund-request-settlement"
          data-kind={settlement.kind}
          data-paid-out={settlement.paidOut}
          data-tick-id={settlement.tickId ?? ''}
          data-price={settlement.price ?? ''}
          data-entry-id={settlement.entryId}
        >
          <h3 className="earn-subtitle">{t('web.fund.settlement.title')}</h3>
          {settlement.kind === 'repaid' && <p>{t('web.fund.settlement.repaid', { paid: text.amount(settlement.paidOut, 'USDT') })}</p>}
          {settlement.kind === 'refunded' && <p>{t('web.fund.settlement.refunded', { paid: text.amount(settlement.paidOut, 'USDT') })}</p>}
          {settlement.kind === 'defaulted' && (
            <p>
              {t('web.fund.settlement.defaulted', {
                sold: text.amount(settlement.sold ?? '0', request.collateralAsset),
                price: text.amount(settlement.price ?? '0', 'USDT'),
                tick: settlement.tickId ?? '—',
                paid: text.amount(settlement.paidOut, 'USDT'),
              })}
            </p>
          )}
          {settlement.shortfall !== null && !isZero(settlement.shortfall) && (
            <p className="field-hint" data-testid="fund-request-shortfall" data-value={settlement.shortfall}>
              {t('web.fund.settlement.shortfall', { shortfall: text.amount(settlement.shortfall, 'USDT') })}
            </p>
          )}
          <p className="muted">{t('web.fund.settlement.entry', { entry: settlement.entryId })}</p>
        </div>
      )}
    </div>
  );
}
