import { getPositionContract, type LeveragePosition, type LeveragePositionEvent } from '@keel/contracts';
import { useQueries } from '@tanstack/react-query';
import { contractKey } from '@keel/ui';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { useContractQuery } from '../../shared/api/queries.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Segmented } from '../../shared/ui/components.tsx';
import type { Ticker } from '../market/tickers.ts';
import { TickFacts } from '../options/OptionsParts.tsx';
import { POSITION_HISTORY_PAGE_SIZE, positionInput } from './leverage-inputs.ts';
import { closeReasonKeys, eventKindKeys, LeverageTag, SideTag, TickIds, timeText } from './LeverageParts.tsx';
import { chargeRecords, standingAt } from './position-figures.ts';
import { LimitOrders } from './LimitOrders.tsx';
import { PositionSheet } from './PositionSheets.tsx';
import type { LeverageData } from './useLeverage.ts';


export type SheetKind = 'close' | 'margin' | 'triggers';
type Tab = 'open' | 'orders' | 'history' | 'charges';

/** Every event of a position: its detail (fetched while shown), or the list's last few until it is in. */
function usePositionDetail(position: LeveragePosition, enabled: boolean) {
  const detail = useContractQuery(getPositionContract, positionInput(position.id), { enabled });
  return { position: detail.data ?? position, complete: detail.data !== undefined, failed: detail.isError, reload: () => void detail.refetch() };
}

function Fact({ label, children, testId, strong }: { label: string; children: ReactNode; testId?: string; strong?: boolean }) {
  return (
    <div className={strong ? 'facts-strong' : undefined}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const priceOrNone = (price: string | null, none: string, testId?: string) => (price === null ? <span data-testid={testId}>{none}</span> : <Amount value={price} max={8} testId={testId} />);

/** One event of a position with every figure it has, the recorded tick it used and its journal entry. */
export function PositionEvent({ event }: { event: LeveragePositionEvent }) {
  const { t } = useI18n();
  const insurance = event.insurance;
  const insurancePaid = insurance?.startsWith('-') ?? false;
  const markPriceKind = event.kind === 'liquidation' || event.kind === 'funding';
  return (
    <li className="leverage-event" data-testid="leverage-event" data-kind={event.kind} data-event-id={event.id}>
      <div className="leverage-event-head">
        <span className="leverage-event-kind">{t(eventKindKeys[event.kind])}</span>
        <span className="muted num">{timeText(event.atMs)}</span>
      </div>
      <dl className="facts options-order-facts">
        {event.periodAtMs !== null && <Fact label={t('web.leverage.event.period')}>{timeText(event.periodAtMs)}</Fact>}
        {event.quantity !== null && (
          <Fact label={t('web.leverage.quantity')} testId="leverage-event-quantity">
            <Amount value={event.quantity} max={8} />
          </Fact>
        )}
        {event.price !== null && (
          <Fact label={t(markPriceKind ? 'web.leverage.markPrice' : 'web.leverage.event.price')} testId="leverage-event-price">
            <Amount value={event.price} max={8} />
          </Fact>
        )}
        {event.markTickIds !== null && (
          <Fact label={t('web.leverage.mark.ticks')}>
            <TickIds ids={event.markTickIds} testId="leverage-event-mark-ticks" />
          </Fact>
        )}
        {event.pnl !== null && (
          <Fact label={t('web.leverage.event.pnl')} testId="leverage-event-pnl">
            <Amount value={event.pnl} unit="USDT" signed />
          </Fact>
        )}
        {event.fee !== null && (
          <Fact label={t('web.leverage.event.fee')} testId="leverage-event-fee">
            <Amount value={event.fee} unit="USDT" />
          </Fact>
        )}
        {insurance !== null && insurance !== '0.000000' && (
          <Fact label={t(insurancePaid ? 'web.leverage.event.insurancePaid' : 'web.leverage.event.insuranceFee')} testId="leverage-event-insurance">
            <Amount value={insurancePaid ? insurance.slice(1) : insurance} unit="USDT" />
          </Fact>
        )}
        {event.payout !== null && (
          <Fact label={t('web.leverage.event.payout')} testId="leverage-event-payout">
            <Amount value={event.payout} unit="USDT" />
          </Fact>
        )}
        {event.marginChange !== null && event.kind !== 'open' && (
          <Fact label={t('web.leverage.event.marginChange')} testId="leverage-event-margin-change">
            <Amount value={event.marginChange} unit="USDT" signed />
          </Fact>
        )}
        {event.kind === 'open' && event.marginChange !== null && (
          <Fact label={t('web.leverage.margin')}>
            <Amount value={event.marginChange} unit="USDT" />
          </Fact>
        )}
        {(event.kind === 'triggers' || event.kind === 'open') && (
          <>
            <Fact label={t('web.leverage.takeProfit')}>{priceOrNone(event.takeProfitPrice, t('web.leverage.notSet'))}</Fact>
            <Fact label={t('web.leverage.stopLoss')}>{priceOrNone(event.stopLossPrice, t('web.leverage.notSet'))}</Fact>
          </>
        )}
        {event.entryId !== null && (
          <Fact label={t('web.leverage.event.entry')} testId="leverage-event-entry">
            <span className="mono">{event.entryId}</span>
          </Fact>
        )}
      </dl>
      {event.tick && (
        <TickFacts
          tick={event.tick}
          testId="leverage-event-tick"
          label={t(event.kind === 'open' || event.kind === 'close' ? 'web.leverage.tick.used' : 'web.leverage.tick.fired')}
        />
      )}
    </li>
  );
}

/** A position's events, oldest first. */
function PositionEvents({ position, complete, failed, reload }: ReturnType<typeof usePositionDetail>) {
  const { t } = useI18n();
  return (
    <section className="leverage-events" aria-label={t('web.leverage.events.title')} data-testid="leverage-events" data-complete={complete}>
      <h3 className="leverage-rules-heading">{t('web.leverage.events.title')}</h3>
      {failed && <LoadFailedNotice onRetry={reload} />}
      <ol className="leverage-event-list">
        {position.events.map((event) => (
          <PositionEvent key={event.id} event={event} />
        ))}
      </ol>
      {!complete && !failed && <p className="muted">{t('web.common.loading')}</p>}
    </section>
  );
}

/** The ratio bar's tone: calm, then warning from half the way to liquidation, danger from 80 %. */
function ratioTone(percent: string | null): 'ok' | 'warn' | 'danger' {
  if (percent === null) return 'danger';
  const whole = Number.parseInt(percent, 10);
  return whole >= 80 ? 'danger' : whole >= 50 ? 'warn' : 'ok';
}

function OpenPositionRow({
  position,
  data,
  onSheet,
}: {
  position: LeveragePosition;
  data: LeverageData;
  onSheet: (kind: SheetKind, position: LeveragePosition) => void;
}) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState(false);
  const detail = usePositionDetail(position, expanded);
  const mark = data.markOf(position.symbol);
  const standing = mark ? standingAt(position, mark.price) : null;
  const asset = position.symbol.split('/')[0] ?? '';
  const tone = ratioTone(standing?.marginRatioPercent ?? null);
  const chargeLabel = position.product === 'futures' ? t('web.leverage.fundingSoFar') : t('web.leverage.interestSoFar');
  return (
    <li className="options-order leverage-position" data-testid="leverage-position" data-position-id={position.id} data-position-no={position.positionNo}>
      <div className="options-order-head">
        <bdi dir="ltr" className="options-order-symbol">
          {position.symbol}
        </bdi>
        <SideTag side={position.side} />
        <LeverageTag leverage={position.leverage} />
        <span className="muted mono leverage-position-no">{position.positionNo}</span>
      </div>
      <dl className="facts options-order-facts">
        <Fact label={t('web.leverage.unrealizedPnl')} testId="leverage-position-pnl" strong>
          {standing ? <Amount value={standing.unrealizedPnl} unit="USDT" signed /> : t('web.leverage.noMark')}
        </Fact>
        <Fact label={t('web.leverage.markPrice')} testId="leverage-position-mark">
          {mark ? <Amount value={mark.price} max={8} /> : t('web.leverage.noMark')}
        </Fact>
        <Fact label={t('web.leverage.entryPrice')} testId="leverage-position-entry">
          <Amount value={position.entryPrice} max={8} />
        </Fact>
        <Fact label={t('web.leverage.quantity')} testId="leverage-position-quantity">
          <Amount value={position.quantity} unit={asset} max={8} />
        </Fact>
        <Fact label={t('web.leverage.margin')} testId="leverage-position-margin">
          <Amount value={position.margin} unit="USDT" />
        </Fact>
        <Fact label={t('web.leverage.equity')} testId="leverage-position-equity">
          {standing ? <Amount value={standing.equity} unit="USDT" /> : '—'}
        </Fact>
        <div>
          <dt>{t('web.leverage.marginRatio')}</dt>
          <dd data-testid="leverage-position-ratio" data-value={standing?.marginRatioPercent ?? ''} className={`leverage-ratio ${tone}`}>
            {standing === null ? '—' : standing.marginRatioPercent === null ? t('web.leverage.ratioGone') : <Amount value={standing.marginRatioPercent} suffix=" %" />}
          </dd>
        </div>
        <Fact label={t('web.leverage.liquidationPrice')} testId="leverage-position-liquidation" strong>
          {priceOrNone(position.liquidationPrice, t('web.leverage.noLiquidation'))}
        </Fact>
        <Fact label={t('web.leverage.takeProfit')} testId="leverage-position-tp">
          {priceOrNone(position.takeProfitPrice, t('web.leverage.notSet'))}
        </Fact>
        <Fact label={t('web.leverage.stopLoss')} testId="leverage-position-sl">
          {priceOrNone(position.stopLossPrice, t('web.leverage.notSet'))}
        </Fact>
        <Fact label={chargeLabel} testId="leverage-position-funding">
          <Amount value={position.funding} unit="USDT" signed />
        </Fact>
        <Fact label={t('web.leverage.feesPaid')} testId="leverage-position-fees">
          <Amount value={position.fees} unit="USDT" />
        </Fact>
      </dl>
      <p className="field-hint">{t('web.leverage.marginRatioHint')}</p>
      <div className="leverage-actions">
        <Button variant="secondary" className="btn-small" onClick={() => onSheet('close', position)} data-testid="leverage-position-close">
          {t('web.leverage.action.close')}
        </Button>
        <Button variant="secondary" className="btn-small" onClick={() => onSheet('margin', position)} data-testid="leverage-position-adjust-margin">
          {t('web.leverage.action.margin')}
        </Button>
        <Button variant="secondary" className="btn-small" onClick={() => onSheet('triggers', position)} data-testid="leverage-position-triggers">
          {t('web.leverage.action.triggers')}
        </Button>
        <Button
          variant="ghost"
          className="btn-small"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
          data-testid="leverage-position-events"
        >
          {t('web.leverage.action.events')}
        </Button>
      </div>
      {expanded && <PositionEvents {...detail} />}
    </li>
  );
}

function HistoryRow({ position, expanded }: { position: LeveragePosition; expanded: boolean }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(expanded);
  useEffect(() => {
    if (expanded) setOpen(true);
  }, [expanded]);
  const detail = usePositionDetail(position, open);
  const shown = detail.position;
  const reason = position.closeReason ?? 'user';
  const liquidation = shown.events.find((event) => event.kind === 'liquidation');
  const chargeLabel = position.product === 'futures' ? t('web.leverage.fundingSoFar') : t('web.leverage.interestSoFar');
  return (
    <li className="options-order" data-testid="leverage-history-row" data-position-id={position.id} data-status={position.status} data-reason={reason}>
      <details open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
        <summary className="options-history-summary">
          <span className="options-order-head">
            <bdi dir="ltr" className="options-order-symbol">
              {position.symbol}
            </bdi>
            <SideTag side={position.side} />
            <LeverageTag leverage={position.leverage} />
          </span>
          <span className="options-history-outcome">
            <span className={`options-result leverage-reason ${reason}`} data-testid="leverage-history-reason">
              {t(closeReasonKeys[reason])}
            </span>
            <Amount value={position.realizedPnl} unit="USDT" signed testId="leverage-history-pnl" />
          </span>
        </summary>
        {liquidation && (
          <div className="leverage-liquidation" data-testid="leverage-liquidation">
            <p className="leverage-liquidation-title">{t('web.leverage.liquidation.title')}</p>
            <dl className="facts options-order-facts">
              <Fact label={t('web.leverage.liquidation.markPrice')} testId="leverage-liquidation-mark-price" strong>
                {liquidation.price !== null ? <Amount value={liquidation.price} max={8} /> : '—'}
              </Fact>
              <Fact label={t('web.leverage.mark.ticks')}>
                <TickIds ids={liquidation.markTickIds ?? []} testId="leverage-liquidation-ticks" />
              </Fact>
              {liquidation.insurance?.startsWith('-') && (
                <Fact label={t('web.leverage.event.insurancePaid')} testId="leverage-liquidation-insurance">
                  <Amount value={liquidation.insurance.slice(1)} unit="USDT" />
                </Fact>
              )}
            </dl>
            <p className="field-hint">{t('web.leverage.liquidation.note')}</p>
          </div>
        )}
        <dl className="facts options-order-facts">
          <Fact label={t('web.leverage.positionNo')} testId="leverage-history-no">
            <span className="mono">{position.positionNo}</span>
          </Fact>
          <Fact label={t('web.leverage.openedAt')}>
            <span className="num">{timeText(position.openedAtMs)}</span>
          </Fact>
          {position.closedAtMs !== null && (
            <Fact label={t('web.leverage.closedAt')}>
              <span className="num">{timeText(position.closedAtMs)}</span>
            </Fact>
          )}
          <Fact label={t('web.leverage.entryPrice')}>
            <Amount value={position.entryPrice} max={8} />
          </Fact>
          <Fact label={t('web.leverage.initialMargin')}>
            <Amount value={position.initialMargin} unit="USDT" />
          </Fact>
          <Fact label={t('web.leverage.feesPaid')}>
            <Amount value={position.fees} unit="USDT" />
          </Fact>
          <Fact label={chargeLabel}>
            <Amount value={position.funding} unit="USDT" signed />
          </Fact>
          <Fact label={t('web.leverage.realizedPnl')} strong>
            <Amount value={position.realizedPnl} unit="USDT" signed />
          </Fact>
        </dl>
        {open && <PositionEvents {...detail} />}
      </details>
    </li>
  );
}

/** Funding (futures) or interest (leveraged) charges of the positions on screen, each with its period, amount and journal entry. */
function ChargeRecords({ data, positions }: { data: LeverageData; positions: readonly LeveragePosition[] }) {
  const { t } = useI18n();
  const details = useQueries({
    queries: positions.map((position) => ({
      queryKey: contractKey(getPositionContract, positionInput(position.id)),
      queryFn: () => api(getPositionContract, positionInput(position.id)),
    })),
  });
  const loaded = details.flatMap((query, index) => [query.data ?? positions[index]!]);
  const records = chargeRecords(loaded);
  const loading = details.some((query) => query.isPending);
  const futures = data.product === 'futures';
  const overview = data.overview;
  return (
    <div className="leverage-charges" data-testid="leverage-charges">
      {overview && (
        <p className="options-rule">
          {futures
            ? t('web.leverage.rules.fundingShort', { hours: overview.rules.fundingIntervalHours })
            : t('web.leverage.rules.interestShort')}
        </p>
      )}
      {records.length === 0 ? (
        <p className="muted" data-testid="leverage-charges-empty">
          {loading ? t('web.common.loading') : t(futures ? 'web.leverage.charges.emptyFunding' : 'web.leverage.charges.emptyInterest')}
        </p>
      ) : (
        <ul className="options-orders">
          {records.map(({ position, event }) => (
            <li key={event.id} className="options-order leverage-charge" data-testid="leverage-charge" data-kind={event.kind} data-event-id={event.id}>
              <div className="options-order-head">
                <span className="leverage-event-kind">{t(eventKindKeys[event.kind])}</span>
                <bdi dir="ltr" className="options-order-symbol">
                  {position.symbol}
                </bdi>
                <SideTag side={position.side} />
                <span className="leverage-charge-amount">
                  {event.marginChange !== null && <Amount value={event.marginChange} unit="USDT" signed testId="leverage-charge-amount" />}
                </span>
              </div>
              <dl className="facts options-order-facts">
                <Fact label={t('web.leverage.event.period')}>
                  <span className="num">{timeText(event.periodAtMs ?? event.atMs)}</span>
                </Fact>
                {event.price !== null && (
                  <Fact label={t('web.leverage.markPrice')}>
                    <Amount value={event.price} max={8} />
                  </Fact>
                )}
                <Fact label={t('web.leverage.positionNo')}>
                  <span className="mono">{position.positionNo}</span>
                </Fact>
                {event.entryId !== null && (
                  <Fact label={t('web.leverage.event.entry')}>
                    <span className="mono">{event.entryId}</span>
                  </Fact>
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
      <p className="field-hint">{t('web.leverage.charges.scope')}</p>
      <Link to="/assets/records?account=leveraged" className="btn btn-ghost btn-small" data-testid="leverage-records-link">
        {t('web.leverage.charges.records')}
      </Link>
    </div>
  );
}

/**
 * The positions of the screen's product: open ones with their standing at the live mark price and
 * the actions on them, closed ones with every event and the ticks it used (those closed while the
 * screen was open — a take-profit, a stop-loss, a liquidation — open by themselves), and the funding
 * or interest charged.
 */
export function Positions({ data, tickers }: { data: LeverageData; tickers: readonly Ticker[] | null }) {
  const { t } = useI18n();
  const [tab, setTab] = useState<Tab>('open');
  const [sheet, setSheet] = useState<{ kind: SheetKind; positionId: string } | null>(null);
  const openItems = data.open?.items ?? null;
  const historyItems = data.history?.items ?? null;

  // Positions seen open here that then appear closed: their history row opens by itself, and the
  // history shows, so the user sees how and at which tick they closed.
  const seenOpen = useRef(new Set<string>());
  const [justClosed, setJustClosed] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    for (const position of openItems ?? []) seenOpen.current.add(position.id);
  }, [openItems]);
  useEffect(() => {
    const closed = (historyItems ?? []).filter((position) => seenOpen.current.has(position.id)).map((position) => position.id);
    if (closed.length === 0) return;
    for (const id of closed) seenOpen.current.delete(id);
    setJustClosed((current) => new Set([...current, ...closed]));
    setTab('history');
  }, [historyItems]);

  const sheetPosition = sheet ? openItems?.find((position) => position.id === sheet.positionId) : undefined;
  const tickerOf = (symbol: string) => tickers?.find((each) => each.symbol === symbol);
  const total = data.history?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / POSITION_HISTORY_PAGE_SIZE));
  const chargesLabel = data.product === 'futures' ? t('web.leverage.positions.funding') : t('web.leverage.positions.interest');

  return (
    <Card className="options-card">
      <h2 className="card-title">{t('web.leverage.positions.title')}</h2>
      <Segmented
        label={t('web.leverage.positions.title')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'open', label: t('web.leverage.positions.open', { count: openItems?.length ?? 0 }), testId: 'leverage-tab-open' },
          { value: 'orders', label: t('web.leverage.positions.orders', { count: data.pendingOrders?.items.length ?? 0 }), testId: 'leverage-tab-orders' },
          { value: 'history', label: t('web.leverage.positions.history'), testId: 'leverage-tab-history' },
          { value: 'charges', label: chargesLabel, testId: 'leverage-tab-charges' },
        ]}
      />
      {data.failed && <LoadFailedNotice onRetry={data.refresh} />}
      {tab === 'open' &&
        (openItems === null ? (
          <p className="muted">{t('web.common.loading')}</p>
        ) : openItems.length === 0 ? (
          <p className="muted" data-testid="leverage-open-empty">
            {t('web.leverage.positions.empty')}
          </p>
        ) : (
          <ul className="options-orders" data-testid="leverage-open-positions">
            {openItems.map((position) => (
              <OpenPositionRow
                key={position.id}
                position={position}
                data={data}
                onSheet={(kind, chosen) => setSheet({ kind, positionId: chosen.id })}
              />
            ))}
          </ul>
        ))}
      {tab === 'orders' && <LimitOrders data={data} />}
      {tab === 'history' && (
        <>
          {historyItems === null ? (
            <p className="muted">{t('web.common.loading')}</p>
          ) : historyItems.length === 0 ? (
            <p className="muted" data-testid="leverage-history-empty">
              {t('web.leverage.history.empty')}
            </p>
          ) : (
            <ul className="options-orders" data-testid="leverage-history">
              {historyItems.map((position) => (
                <HistoryRow key={position.id} position={position} expanded={justClosed.has(position.id)} />
              ))}
            </ul>
          )}
          {pages > 1 && (
            <nav className="options-pager" aria-label={t('web.options.history.pages')}>
              <Button variant="ghost" className="btn-small" disabled={data.historyPage <= 1} onClick={() => data.setHistoryPage(data.historyPage - 1)}>
                {t('web.options.history.newer')}
              </Button>
              <span className="muted">{t('web.options.history.page', { page: data.historyPage, pages })}</span>
              <Button variant="ghost" className="btn-small" disabled={data.historyPage >= pages} onClick={() => data.setHistoryPage(data.historyPage + 1)}>
                {t('web.options.history.older')}
              </Button>
            </nav>
          )}
        </>
      )}
      {tab === 'charges' && <ChargeRecords data={data} positions={[...(openItems ?? []), ...(historyItems ?? [])]} />}
      {sheet && sheetPosition && data.overview && (
        <PositionSheet
          kind={sheet.kind}
          position={sheetPosition}
          overview={data.overview}
          lastTick={tickerOf(sheetPosition.symbol)?.last ?? null}
          mark={data.markOf(sheetPosition.symbol)}
          onClose={() => setSheet(null)}
        />
      )}
    </Card>
  );
}
