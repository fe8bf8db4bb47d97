import { getLeverageExposureContract, type LeverageExposure } from '@keel/contracts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractQuery } from '../../shared/queries.ts';
import { Field } from '../finance/finance-shared.tsx';
import { ReadOnlyNotice } from './leverage-shared.tsx';

type MarketSide = LeverageExposure['markets'][number];

/** A market and side whose stored exposure differs from what its open positions sum to (the ledger check reports it too). */
const disagrees = (row: MarketSide) => row.exposure !== row.openNotional;

/**
 * The house's open exposure per market and side (roles admin and finance), read only: what the
 * published limit is checked against when a position opens, its share of the limit and what is
 * left, next to the open positions it sums and their margin. Every configured market is listed
 * with both sides. Nothing here can change the limit, a position or a price.
 */
export function LeverageExposurePage() {
  const { t } = useI18n();
  const exposure = useContractQuery(getLeverageExposureContract, undefined, { staleTime: 0 });
  const data = exposure.data;

  return (
    <section data-testid="leverage-exposure-page">
      <h2>{t('admin.leverage.exposure.title')}</h2>
      <p className="muted">{t('admin.leverage.exposure.intro')}</p>
      <ReadOnlyNotice />
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => void exposure.refetch()}>
          {t('admin.leverage.refresh')}
        </button>
      </div>
      <ErrorAlert error={exposure.error} />
      {data && (
        <>
          <section className="card house" aria-label={t('admin.leverage.exposure.summary')} data-testid="exposure-summary">
            <dl className="fields">
              <Field label={t('admin.leverage.exposure.limit')}>
                <span data-testid="exposure-limit">{data.limit}</span> {data.asset}
              </Field>
              <Field label={t('admin.leverage.exposure.col.exposure')}>
                <span data-testid="exposure-total">{data.totals.exposure}</span> {data.asset}
              </Field>
              <Field label={t('admin.leverage.exposure.col.positions')} testId="exposure-total-positions">
                {data.totals.openPositions}
              </Field>
              <Field label={t('admin.leverage.exposure.col.margin')}>
                <span data-testid="exposure-total-margin">{data.totals.openMargin}</span> {data.asset}
              </Field>
            </dl>
          </section>
          {data.markets.some(disagrees) && (
            <p className="error" role="alert" data-testid="exposure-mismatch">
              {t('admin.leverage.exposure.mismatch')}
            </p>
          )}
          <table data-testid="exposure-table">
            <thead>
              <tr>
                <th>{t('admin.leverage.exposure.col.market')}</th>
                <th>{t('admin.leverage.exposure.col.side')}</th>
                <th>{t('admin.leverage.exposure.col.exposure')}</th>
                <th>{t('admin.leverage.exposure.col.used')}</th>
                <th>{t('admin.leverage.exposure.col.remaining')}</th>
                <th>{t('admin.leverage.exposure.col.positions')}</th>
                <th>{t('admin.leverage.exposure.col.notional')}</th>
                <th>{t('admin.leverage.exposure.col.margin')}</th>
              </tr>
            </thead>
            <tbody>
              {data.markets.map((row) => (
                <tr key={`${row.symbol} ${row.side}`} data-testid={`exposure-${row.symbol}-${row.side}`} className={disagrees(row) ? 'error' : undefined}>
                  <td>
                    <strong>{row.symbol}</strong>
                  </td>
                  <td>{t(`admin.leverage.side.${row.side}`)}</td>
                  <td>
                    <span data-testid="exposure-amount">{row.exposure}</span> {data.asset}
                  </td>
                  <td>
                    <meter
                      min={0}
                      max={100}
                      high={80}
                      value={Number(row.usedPercent)}
                      aria-label={t('admin.leverage.exposure.meter', { market: row.symbol, side: t(`admin.leverage.side.${row.side}`) })}
                    />{' '}
                    <span data-testid="exposure-used">{t('admin.leverage.exposure.percent', { percent: row.usedPercent })}</span>
                  </td>
                  <td>
                    {/* Negative only if the limit was lowered below what is open. */}
                    <span data-testid="exposure-remaining" dir="ltr" className={row.remaining.startsWith('-') ? 'signed signed-negative' : undefined}>
                      {row.remaining}
                    </span>{' '}
                    {data.asset}
                  </td>
                  <td data-testid="exposure-positions">{row.openPositions}</td>
                  <td>
                    <span data-testid="exposure-notional">{row.openNotional}</span> {data.asset}
                  </td>
                  <td>
                    <span data-testid="exposure-margin">{row.openMargin}</span> {data.asset}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
