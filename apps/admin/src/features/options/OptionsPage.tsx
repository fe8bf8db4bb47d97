import {
  type ContractData,
  getOptionsHouseContract,
  listStaffOptionOrdersContract,
  type OptionOrder,
  type OptionsHouse,
  optionOrderStatuses,
} from '@keel/contracts';
import type { z } from 'zod';
import { mayCall } from '../../app/views.ts';
import { useStaff } from '../../app/staff.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { emptyAsUndefined, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { queryOf, useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { Signed } from '../../shared/Signed.tsx';
import { useContractQuery } from '../../shared/queries.ts';
import { Field } from '../finance/finance-shared.tsx';

type StaffOptionOrder = ContractData<typeof listStaffOptionOrdersContract>['items'][number];
type Tick = OptionOrder['openTick'];

/** The order filters as a form: the list contract's own rules (the user is an id). */
const orderFilterSchema = queryOf(listStaffOptionOrdersContract).pick({ status: true, userId: true });
type OrderFilter = z.output<typeof orderFilterSchema>;

const PAGE_SIZE = 20;

/**
 * The house's running profit and loss: the options house ledger account next to the result summed
 * from settled orders (they agree; a difference is flagged), the settled and open totals, and the
 * last 30 UTC days with settlements.
 */
function HouseSummary({ house }: { house: OptionsHouse }) {
  const { t } = useI18n();
  const usdt = (amount: string, testId: string) => (
    <>
      <span data-testid={testId}>{amount}</span> {house.asset}
    </>
  );
  const signed = (amount: string, testId: string) => (
    <>
      <Signed amount={amount} testId={testId} /> {house.asset}
    </>
  );
  return (
    <section className="card house" aria-label={t('admin.options.house.title')} data-testid="options-house">
      <h3>{t('admin.options.house.title')}</h3>
      <p className="muted">{t('admin.options.house.intro')}</p>
      <dl className="fields">
        <Field label={t('admin.options.house.balance')}>{signed(house.houseBalance, 'house-balance')}</Field>
        <Field label={t('admin.options.house.result')}>{signed(house.settled.houseResult, 'house-result')}</Field>
      </dl>
      {house.houseBalance !== house.settled.houseResult && (
        <p className="error" role="alert" data-testid="house-mismatch">
          {t('admin.options.house.mismatch')}
        </p>
      )}
      <div className="house-groups">
        <div>
          <h4>{t('admin.options.house.settled')}</h4>
          <dl className="fields" data-testid="house-settled">
            <Field label={t('admin.options.house.count')} testId="house-settled-count">
              {house.settled.count}
            </Field>
            <Field label={t('admin.options.status.won')} testId="house-won">
              {house.settled.won}
            </Field>
            <Field label={t('admin.options.status.lost')} testId="house-lost">
              {house.settled.lost}
            </Field>
            <Field label={t('admin.options.status.flat')} testId="house-flat">
              {house.settled.flat}
            </Field>
            <Field label={t('admin.options.status.void')} testId="house-void">
              {house.settled.void}
            </Field>
            <Field label={t('admin.options.house.staked')}>{usdt(house.settled.staked, 'house-staked')}</Field>
            <Field label={t('admin.options.house.paidToWinners')}>{usdt(house.settled.paidToWinners, 'house-paid')}</Field>
            <Field label={t('admin.options.house.takenFromLosers')}>{usdt(house.settled.takenFromLosers, 'house-taken')}</Field>
          </dl>
        </div>
        <div>
          <h4>{t('admin.options.house.open')}</h4>
          <dl className="fields" data-testid="house-open">
            <Field label={t('admin.options.house.count')} testId="house-open-count">
              {house.open.count}
            </Field>
            <Field label={t('admin.options.house.staked')}>{usdt(house.open.staked, 'house-open-staked')}</Field>
            <Field label={t('admin.options.house.maxPayout')}>{usdt(house.open.maxPayout, 'house-max-payout')}</Field>
          </dl>
        </div>
      </div>
      <h4>{t('admin.options.byDay.title')}</h4>
      {house.byDay.length === 0 ? (
        <p className="muted" data-testid="house-by-day-empty">
          {t('admin.options.byDay.empty')}
        </p>
      ) : (
        <table data-testid="house-by-day">
          <thead>
            <tr>
              <th>{t('admin.options.byDay.day')}</th>
              <th>{t('admin.options.house.settled')}</th>
              <th>{t('admin.options.byDay.result')}</th>
            </tr>
          </thead>
          <tbody>
            {house.byDay.map((day) => (
              <tr key={day.day} data-testid={`house-day-${day.day}`}>
                <td>{day.day}</td>
                <td>{day.count}</td>
                <td>
                  <Signed amount={day.houseResult} /> {house.asset}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A recorded tick as the order holds it: price, when the source observed it, the source, its id. */
function TickCell({ tick, testId }: { tick: Tick; testId: string }) {
  const { t } = useI18n();
  return (
    <dl className="fields tick" data-testid={testId}>
      <Field label={t('admin.options.tick.price')} testId={`${testId}-price`}>
        {tick.price}
      </Field>
      <Field label={t('admin.options.tick.time')} testId={`${testId}-time`}>
        {formatEpochMs(tick.atMs, true)}
      </Field>
      <Field label={t('admin.options.tick.source')} testId={`${testId}-source`}>
        <code>{tick.source}</code>
      </Field>
      <Field label={t('admin.options.tick.id')} testId={`${testId}-id`}>
        {tick.tickId}
      </Field>
    </dl>
  );
}

/** The closing tick; while open, the rule that will pick it; settled without one: void, stake returned. */
function CloseTickCell({ order }: { order: StaffOptionOrder }) {
  const { t } = useI18n();
  if (order.closeTick) return <TickCell tick={order.closeTick} testId="close-tick" />;
  return (
    <span className="muted" data-testid="close-tick">
      {t(order.status === 'open' ? 'admin.options.tick.pending' : 'admin.options.tick.none')}
    </span>
  );
}

/**
 * Status and user filters (the finance queues' pattern), showing the URL's: the status applies as
 * soon as it is chosen, the user id on submit (checked by the contract's rule first); Refresh
 * reloads the summary and the page.
 */
function OrderFilters({ filter, onApply, onRefresh }: { filter: OrderFilter; onApply: (filter: OrderFilter) => void; onRefresh: () => void }) {
  const { t } = useI18n();
  const form = useContractForm(orderFilterSchema, {
    values: { status: filter.status, userId: filter.userId },
    messages: { userId: { '*': fieldMessage('admin.options.filter.userInvalid') } },
  });
  const apply = form.handleSubmit(onApply);

  return (
    <search>
      <form className="toolbar" onSubmit={apply} noValidate>
        <select aria-label={t('admin.options.filter.status')} {...form.register('status', { setValueAs: emptyAsUndefined, onChange: () => void apply() })}>
          <option value="">{t('admin.options.filter.allStatuses')}</option>
          {optionOrderStatuses.map((each) => (
            <option key={each} value={each}>
              {t(`admin.options.status.${each}`)}
            </option>
          ))}
        </select>
        <input
          aria-label={t('admin.options.filter.user')}
          placeholder={t('admin.options.filter.user')}
          inputMode="numeric"
          maxLength={19}
          autoComplete="off"
          aria-describedby="order-user-error"
          {...form.register('userId', { setValueAs: (value: unknown) => emptyAsUndefined(String(value ?? '').trim()) })}
        />
        <button type="submit">{t('admin.options.filter.apply')}</button>
        <button type="button" className="secondary" onClick={onRefresh}>
          {t('admin.options.refresh')}
        </button>
      </form>
      <FieldErrorText error={form.formState.errors.userId} id="order-user-error" />
    </search>
  );
}

/**
 * Every user's orders (roles admin, finance and support), newest first, filtered by status and
 * user, a page at a time, each with both of its ticks. `onRefresh` also reloads the house summary.
 */
function OrdersSection({ onRefresh }: { onRefresh: () => void }) {
  const { t } = useI18n();
  const { filter, applyFilter, list, table } = useListQuery(listStaffOptionOrdersContract, PAGE_SIZE);

  return (
    <section aria-label={t('admin.options.orders.title')} data-testid="options-orders">
      <h3>{t('admin.options.orders.title')}</h3>
      <OrderFilters
        filter={filter}
        onApply={applyFilter}
        onRefresh={() => {
          onRefresh();
          void list.refetch();
        }}
      />
      <ErrorAlert error={list.error} />
      <PagedTable
        {...table}
        total="admin.options.orders.total"
        empty={{ text: 'admin.options.orders.empty', testId: 'options-orders-empty' }}
        columns={[
          'admin.options.col.order',
          'admin.options.col.user',
          'admin.options.col.contract',
          'admin.options.col.stake',
          'admin.options.col.result',
          'admin.options.col.openTick',
          'admin.options.col.closeTick',
          'admin.options.col.times',
        ]}
        rowGroupTestId={(item) => `option-row-user-${item.userId}`}
        row={(item) => (
          <tr data-testid={`option-row-${item.id}`}>
            <td>
              <code className="order-no" data-testid="order-no">
                {item.orderNo}
              </code>
              <div className="muted">#{item.id}</div>
            </td>
            <td data-testid="order-user">#{item.userId}</td>
            <td data-testid="order-contract">
              <strong>{item.symbol}</strong> · {t(`admin.options.direction.${item.direction}`)}
              <div className="muted">{t('admin.options.cycle', { seconds: item.cycleSeconds })}</div>
            </td>
            <td>
              <span data-testid="order-stake">{item.stake}</span> USDT
              <div className="muted">{t('admin.options.winPays', { profit: item.expectedProfit, percent: item.yieldPercent })}</div>
            </td>
            <td>
              <span className={`status status-${item.status}`} data-testid="order-status">
                {t(`admin.options.status.${item.status}`)}
              </span>
              {item.actualProfit !== null && (
                <>
                  <div className="muted">{t('admin.options.userResult')}</div>
                  <Signed amount={item.actualProfit} testId="order-profit" /> USDT
                </>
              )}
            </td>
            <td>
              <TickCell tick={item.openTick} testId="open-tick" />
            </td>
            <td>
              <CloseTickCell order={item} />
            </td>
            <td>
              <dl className="fields tick">
                <Field label={t('admin.options.time.placed')} testId="order-placed">
                  {formatEpochMs(item.placedAtMs, true)}
                </Field>
                <Field label={t('admin.options.time.expires')} testId="order-expires">
                  {formatEpochMs(item.expiresAtMs, true)}
                </Field>
                <Field label={t('admin.options.time.settled')} testId="order-settled">
                  {item.settledAtMs === null ? null : formatEpochMs(item.settledAtMs, true)}
                </Field>
              </dl>
            </td>
          </tr>
        )}
      />
    </section>
  );
}

/**
 * Short-cycle contracts (issue 7), read only. Staff with the house contract's roles (admin,
 * finance) see the house's running profit and loss; staff with the order list's roles (admin,
 * finance, support) see every user's orders with both ticks, filtered by the URL's status and
 * user (/admin/options?status=won&userId=42). Each part is asked for only by staff the server
 * would answer. Results come only from recorded ticks: there is deliberately no action of any
 * kind here (no price, tick or result can be set by staff).
 */
export function OptionsPage() {
  const { t } = useI18n();
  const { roles } = useStaff();
  const showHouse = mayCall(roles, getOptionsHouseContract);
  const showOrders = mayCall(roles, listStaffOptionOrdersContract);
  const house = useContractQuery(getOptionsHouseContract, undefined, { enabled: showHouse, staleTime: 0 });
  const reloadHouse = () => void house.refetch();

  return (
    <section data-testid="options-page">
      <h2>{t('admin.options.title')}</h2>
      <p className="muted">{t('admin.options.intro')}</p>
      <p className="notice" data-testid="options-read-only">
        {t('admin.options.readOnly')}
      </p>
      {showHouse && (
        <>
          <ErrorAlert error={house.error} />
          {house.data && <HouseSummary house={house.data} />}
          {!showOrders && (
            <div className="toolbar">
              <button type="button" className="secondary" onClick={reloadHouse}>
                {t('admin.options.refresh')}
              </button>
            </div>
          )}
        </>
      )}
      {showOrders && <OrdersSection onRefresh={reloadHouse} />}
    </section>
  );
}
