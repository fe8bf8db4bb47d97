import {
  type ContractData,
  getStaffPositionContract,
  leverageProducts,
  listStaffPositionsContract,
  type LeveragePositionEvent,
  positionStatuses,
} from '@keel/contracts';
import { Link, Outlet, useOutletContext } from 'react-router';
import type { z } from 'zod';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { emptyAsUndefined, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { queryOf, useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { RecordRoute, useRecordLinks } from '../../shared/record-route.tsx';
import { Signed } from '../../shared/Signed.tsx';
import { Field } from '../finance/finance-shared.tsx';
import { PositionKind, PositionStatus, ReadOnlyNotice, TickFields } from './leverage-shared.tsx';

type StaffPosition = ContractData<typeof listStaffPositionsContract>['items'][number];
type PositionDetail = ContractData<typeof getStaffPositionContract>;
type Mark = ContractData<typeof listStaffPositionsContract>['marks'][number];

const PAGE_SIZE = 20;
const LIST_PATH = '/leverage/positions';
/** The read that opens one position at /admin/leverage/positions/:positionId. */
const positionRead = { contract: getStaffPositionContract, param: 'positionId' };

/** The filters as a form: the list contract's own rules. */
const filterSchema = queryOf(listStaffPositionsContract).pick({ status: true, product: true, symbol: true, userId: true });
type PositionFilter = z.output<typeof filterSchema>;

/** What the list gives the position opened under it: how to close it. */
type PositionsOutlet = { close: () => void };

/** Trims a typed value (and upper-cases a market), an empty one meaning "any". */
const typed = (upper: boolean) => (value: unknown) => {
  const text = String(value ?? '').trim();
  return emptyAsUndefined(upper ? text.toUpperCase() : text);
};

/**
 * Status and product apply as soon as they are chosen; market and user on submit, each checked by
 * the contract's rule first. Refresh reads the page again.
 */
function PositionFilters({ filter, onApply, onRefresh }: { filter: PositionFilter; onApply: (filter: PositionFilter) => void; onRefresh: () => void }) {
  const { t } = useI18n();
  const form = useContractForm(filterSchema, {
    values: { status: filter.status, product: filter.product, symbol: filter.symbol, userId: filter.userId },
    messages: {
      symbol: { '*': fieldMessage('admin.leverage.filter.symbolInvalid') },
      userId: { '*': fieldMessage('admin.leverage.filter.userInvalid') },
    },
  });
  const apply = form.handleSubmit(onApply);

  return (
    <search>
      <form className="toolbar" onSubmit={apply} noValidate>
        <select aria-label={t('admin.leverage.filter.status')} {...form.register('status', { setValueAs: emptyAsUndefined, onChange: () => void apply() })}>
          <option value="">{t('admin.leverage.filter.allStatuses')}</option>
          {positionStatuses.map((each) => (
            <option key={each} value={each}>
              {t(`admin.leverage.status.${each}`)}
            </option>
          ))}
        </select>
        <select aria-label={t('admin.leverage.filter.product')} {...form.register('product', { setValueAs: emptyAsUndefined, onChange: () => void apply() })}>
          <option value="">{t('admin.leverage.filter.allProducts')}</option>
          {leverageProducts.map((each) => (
            <option key={each} value={each}>
              {t(`admin.leverage.product.${each}`)}
            </option>
          ))}
        </select>
        <input
          aria-label={t('admin.leverage.filter.symbol')}
          placeholder={t('admin.leverage.filter.symbolPlaceholder')}
          maxLength={21}
          autoComplete="off"
          aria-describedby="position-symbol-error"
          {...form.register('symbol', { setValueAs: typed(true) })}
        />
        <input
          aria-label={t('admin.leverage.filter.user')}
          placeholder={t('admin.leverage.filter.user')}
          inputMode="numeric"
          maxLength={19}
          autoComplete="off"
          aria-describedby="position-user-error"
          {...form.register('userId', { setValueAs: typed(false) })}
        />
        <button type="submit">{t('admin.leverage.filter.apply')}</button>
        <button type="button" className="secondary" onClick={onRefresh}>
          {t('admin.leverage.refresh')}
        </button>
      </form>
      <FieldErrorText error={form.formState.errors.symbol} id="position-symbol-error" />
      <FieldErrorText error={form.formState.errors.userId} id="position-user-error" />
    </search>
  );
}

/** An open position's liquidation price, or why it has none (a closed position has none to show). */
function LiquidationPrice({ price }: { price: string | null }) {
  const { t } = useI18n();
  if (price === null) return <span className="muted">{t('admin.leverage.field.noLiquidationPrice')}</span>;
  return <span data-testid="position-liquidation">{price}</span>;
}

/** The mark price of an open position's market: the median of its last recorded ticks, with the ticks it was taken over. */
function MarkFields({ mark, testId }: { mark: Mark; testId: string }) {
  const { t } = useI18n();
  return (
    <dl className="fields tick" data-testid={testId}>
      <Field label={t('admin.leverage.tick.price')} testId={`${testId}-price`}>
        {mark.price}
      </Field>
      <Field label={t('admin.leverage.tick.time')}>{formatEpochMs(mark.atMs, true)}</Field>
      <Field label={t('admin.leverage.mark.ticks')} testId={`${testId}-ticks`}>
        {mark.tickIds.join(', ')}
      </Field>
    </dl>
  );
}

/** The money and triggers an event moved or set, each only when it has one. */
function EventAmounts({ event }: { event: LeveragePositionEvent }) {
  const { t } = useI18n();
  const usdt = (amount: string | null, testId: string, signed = false) =>
    amount === null ? null : (
      <>
        {signed ? <Signed amount={amount} testId={testId} /> : <span data-testid={testId}>{amount}</span>} USDT
      </>
    );
  return (
    <dl className="fields tick">
      <Field label={t('admin.leverage.amount.pnl')}>{usdt(event.pnl, 'event-pnl', true)}</Field>
      <Field label={t('admin.leverage.amount.fee')}>{usdt(event.fee, 'event-fee')}</Field>
      <Field label={t('admin.leverage.amount.insurance')}>{usdt(event.insurance, 'event-insurance', true)}</Field>
      <Field label={t('admin.leverage.amount.payout')}>{usdt(event.payout, 'event-payout')}</Field>
      <Field label={t('admin.leverage.amount.marginChange')}>{usdt(event.marginChange, 'event-margin', true)}</Field>
      <Field label={t('admin.leverage.field.takeProfit')} testId="event-take-profit">
        {event.takeProfitPrice}
      </Field>
      <Field label={t('admin.leverage.field.stopLoss')} testId="event-stop-loss">
        {event.stopLossPrice}
      </Field>
      <Field label={t('admin.leverage.amount.period')}>{event.periodAtMs === null ? null : formatEpochMs(event.periodAtMs)}</Field>
    </dl>
  );
}

/** Every event of a position, oldest first, each with the recorded tick it used (and a liquidation's mark ticks). */
function EventsTable({ events }: { events: readonly LeveragePositionEvent[] }) {
  const { t } = useI18n();
  return (
    <table data-testid="position-events">
      <thead>
        <tr>
          <th>{t('admin.leverage.events.col.event')}</th>
          <th>{t('admin.leverage.events.col.time')}</th>
          <th>{t('admin.leverage.field.quantity')}</th>
          <th>{t('admin.leverage.events.col.price')}</th>
          <th>{t('admin.leverage.events.col.tick')}</th>
          <th>{t('admin.leverage.events.col.amounts')}</th>
          <th>{t('admin.leverage.events.col.entry')}</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.id} data-testid={`event-row-${event.id}`}>
            <td>
              <span data-testid="event-kind">{t(`admin.leverage.event.${event.kind}`)}</span>
              <div className="muted">#{event.id}</div>
            </td>
            <td>{formatEpochMs(event.atMs, true)}</td>
            <td data-testid="event-quantity">{event.quantity}</td>
            <td data-testid="event-price">{event.price}</td>
            <td>
              {event.tick ? (
                <TickFields tick={event.tick} testId="event-tick" />
              ) : (
                <span className="muted" data-testid="event-tick">
                  {t('admin.leverage.tick.none')}
                </span>
              )}
              {event.markTickIds && (
                <div className="muted" data-testid="event-mark-ticks">
                  {t('admin.leverage.event.markTicks', { ids: event.markTickIds.join(', ') })}
                </div>
              )}
            </td>
            <td>
              <EventAmounts event={event} />
            </td>
            <td data-testid="event-entry">{event.entryId === null ? null : `#${event.entryId}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One position with every fact of it, its opening tick, its market's mark while open, and every event. */
function PositionDetailCard({ position, onClose }: { position: PositionDetail; onClose: () => void }) {
  const { t } = useI18n();
  const heading = t('admin.leverage.detail.title', { positionNo: position.positionNo });
  const usdt = (amount: string, testId: string) => (
    <>
      <span data-testid={testId}>{amount}</span> USDT
    </>
  );
  return (
    <DetailCard label={heading} title={heading} record={position} closeLabel={t('admin.leverage.detail.back')} onClose={onClose} testId="position-detail">
      <dl className="fields">
        <Field label={t('admin.leverage.field.status')}>
          <PositionStatus position={position} />
        </Field>
        <Field label={t('admin.leverage.col.position')} testId="field-kind">
          <PositionKind position={position} />
        </Field>
        <Field label={t('admin.leverage.field.quantity')} testId="field-quantity">
          {position.quantity}
        </Field>
        <Field label={t('admin.leverage.field.entryPrice')} testId="field-entry-price">
          {position.entryPrice}
        </Field>
        <Field label={t('admin.leverage.field.entryNotional')}>{usdt(position.entryNotional, 'field-entry-notional')}</Field>
        <Field label={t('admin.leverage.field.initialMargin')}>{usdt(position.initialMargin, 'field-initial-margin')}</Field>
        <Field label={t('admin.leverage.field.margin')}>{usdt(position.margin, 'field-margin')}</Field>
        <Field label={t('admin.leverage.field.liquidationPrice')}>
          {position.status === 'open' ? <LiquidationPrice price={position.liquidationPrice} /> : null}
        </Field>
        <Field label={t('admin.leverage.field.takeProfit')} testId="field-take-profit">
          {position.takeProfitPrice}
        </Field>
        <Field label={t('admin.leverage.field.stopLoss')} testId="field-stop-loss">
          {position.stopLossPrice}
        </Field>
        <Field label={t('admin.leverage.field.realizedPnl')}>
          <Signed amount={position.realizedPnl} testId="field-realized-pnl" /> USDT
        </Field>
        <Field label={t('admin.leverage.field.fees')}>{usdt(position.fees, 'field-fees')}</Field>
        <Field label={t('admin.leverage.field.funding')}>
          <Signed amount={position.funding} testId="field-funding" /> USDT
        </Field>
        <Field label={t('admin.leverage.field.opened')} testId="field-opened">
          {formatEpochMs(position.openedAtMs, true)}
        </Field>
        <Field label={t('admin.leverage.field.closed')} testId="field-closed">
          {position.closedAtMs === null ? null : formatEpochMs(position.closedAtMs, true)}
        </Field>
      </dl>
      <div className="house-groups">
        <div>
          <h4>{t('admin.leverage.field.openTick')}</h4>
          <TickFields tick={position.openTick} testId="open-tick" />
        </div>
        {position.status === 'open' && (
          <div>
            <h4>{t('admin.leverage.field.mark')}</h4>
            {position.mark ? (
              <MarkFields mark={position.mark} testId="position-mark" />
            ) : (
              <p className="muted" data-testid="position-mark">
                {t('admin.leverage.mark.none')}
              </p>
            )}
          </div>
        )}
      </div>
      <h4>{t('admin.leverage.events.title')}</h4>
      <EventsTable events={position.events} />
    </DetailCard>
  );
}

/** /admin/leverage/positions/:positionId — one position of any user, above the list it was opened from. */
export function PositionDetailRoute() {
  const { close } = useOutletContext<PositionsOutlet>();
  return (
    <RecordRoute read={positionRead} onClose={close}>
      {(position) => <PositionDetailCard key={position.id} position={position} onClose={close} />}
    </RecordRoute>
  );
}

/**
 * Leveraged and futures positions of all users (roles admin, finance and support), read only:
 * newest first, filtered by status, product, market and user — all in the URL
 * (/admin/leverage/positions?status=liquidated&userId=42) — each with its size, margin,
 * liquidation price (and, while open, its market's mark price) and result. A position opens at
 * its own URL with every event and the recorded tick each used. There is deliberately no action
 * of any kind here: no price, tick, trigger, liquidation, PnL, margin or balance can be set.
 */
export function LeveragePositionsPage() {
  const { t } = useI18n();
  const { filter, applyFilter, list, table } = useListQuery(listStaffPositionsContract, PAGE_SIZE);
  const { recordTo, close } = useRecordLinks(LIST_PATH);
  const marks = new Map((list.data?.marks ?? []).map((mark) => [mark.symbol, mark]));

  return (
    <section data-testid="leverage-positions-page">
      <h2>{t('admin.leverage.positions.title')}</h2>
      <p className="muted">{t('admin.leverage.positions.intro')}</p>
      <ReadOnlyNotice />
      <PositionFilters filter={filter} onApply={applyFilter} onRefresh={() => void list.refetch()} />
      <ErrorAlert error={list.error} />
      <Outlet context={{ close } satisfies PositionsOutlet} />
      <PagedTable<StaffPosition>
        {...table}
        total="admin.leverage.positions.total"
        empty={{ text: 'admin.leverage.positions.empty', testId: 'positions-empty' }}
        columns={[
          'admin.leverage.col.position',
          'admin.leverage.col.user',
          'admin.leverage.col.kind',
          'admin.leverage.col.size',
          'admin.leverage.col.margin',
          'admin.leverage.col.liquidation',
          'admin.leverage.col.status',
          'admin.leverage.col.times',
          'admin.leverage.col.actions',
        ]}
        rowGroupTestId={(item) => `position-row-user-${item.userId}`}
        row={(item) => {
          const mark = item.status === 'open' ? marks.get(item.symbol) : undefined;
          return (
            <tr data-testid={`position-row-${item.id}`}>
              <td>
                <code className="order-no" data-testid="position-no">
                  {item.positionNo}
                </code>
                <div className="muted">#{item.id}</div>
              </td>
              <td data-testid="position-user">
                {item.userName} (#{item.userId})
              </td>
              <td data-testid="position-kind">
                <PositionKind position={item} />
              </td>
              <td>
                <dl className="fields tick nowrap">
                  <Field label={t('admin.leverage.field.quantity')} testId="position-quantity">
                    {item.quantity}
                  </Field>
                  <Field label={t('admin.leverage.field.entryPrice')} testId="position-entry-price">
                    {item.entryPrice}
                  </Field>
                  <Field label={t('admin.leverage.field.entryNotional')} testId="position-notional">
                    {item.entryNotional}
                  </Field>
                </dl>
              </td>
              <td>
                <span data-testid="position-margin">{item.margin}</span> USDT
                {item.status === 'open' && <div className="muted">{t('admin.leverage.initialMargin', { amount: item.initialMargin })}</div>}
              </td>
              <td>
                {item.status === 'open' && <LiquidationPrice price={item.liquidationPrice} />}
                {mark && (
                  <div className="muted" data-testid="position-mark">
                    {t('admin.leverage.markNow', { price: mark.price })}
                  </div>
                )}
              </td>
              <td>
                <PositionStatus position={item} />
                {item.status !== 'open' && (
                  <div>
                    <Signed amount={item.realizedPnl} testId="position-pnl" /> USDT
                  </div>
                )}
              </td>
              <td>
                <dl className="fields tick">
                  <Field label={t('admin.leverage.field.opened')} testId="position-opened">
                    {formatEpochMs(item.openedAtMs, true)}
                  </Field>
                  <Field label={t('admin.leverage.field.closed')} testId="position-closed">
                    {item.closedAtMs === null ? null : formatEpochMs(item.closedAtMs, true)}
                  </Field>
                </dl>
              </td>
              <td>
                <Link to={recordTo(item.id)} data-testid="position-view">
                  {t('admin.leverage.view')}
                </Link>
              </td>
            </tr>
          );
        }}
      />
    </section>
  );
}
