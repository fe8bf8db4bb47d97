import {
  type ContractData,
  getOptionsHouseContract,
  idSchema,
  listStaffOptionOrdersContract,
  type OptionOrder,
  type OptionsHouse,
  optionOrderStatuses,
} from '@keel/contracts';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';
import { Field } from '../finance/finance-shared.tsx';

type StaffOptionOrder = ContractData<typeof listStaffOptionOrdersContract>['items'][number];
type OrderStatus = OptionOrder['status'];
type Tick = OptionOrder['openTick'];
type OrderFilter = { status: OrderStatus | undefined; userId: string | undefined };

const PAGE_SIZE = 20;

/**
 * The sign of a decimal string, read from its text (money never becomes a JS number here):
 * "-80.000000" is negative, "0.000000" (or "-0.000000") zero, anything else positive.
 */
function signOf(amount: string): 'negative' | 'zero' | 'positive' {
  if (/^[+-]?0*(\.0*)?$/.test(amount)) return 'zero';
  return amount.startsWith('-') ? 'negative' : 'positive';
}

/**
 * A signed amount as the server sent it, with its sign always written out ("+80.000000",
 * "-80.000000") and styled by sign: a loss stands out from a gain. Always left to right, so the
 * sign stays in front of the number in Arabic too.
 */
function Signed({ amount, testId }: { amount: string; testId?: string }) {
  const sign = signOf(amount);
  const text = sign === 'positive' && !amount.startsWith('+') ? `+${amount}` : amount;
  return (
    <span className={`signed signed-${sign}`} dir="ltr" data-testid={testId}>
      {text}
    </span>
  );
}

/** The house summary (roles admin and finance); loads when `enabled`, again on `load()`. */
function useHouse(enabled: boolean) {
  const { describeError } = useI18n();
  const [house, setHouse] = useState<OptionsHouse | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!enabled) return;
    try {
      setHouse(await api(getOptionsHouseContract));
      setError(null);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [enabled, describeError]);

  useEffect(() => {
    void load();
  }, [load]);

  return { house, error, load };
}

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
 * Status and user filters (the outbox's and the finance queues' pattern): the status applies as
 * soon as it is chosen, the user id on submit; Refresh reloads the summary and the page.
 */
function OrderFilters({ onApply, onRefresh }: { onApply: (filter: OrderFilter) => void; onRefresh: () => void }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [userId, setUserId] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  function apply(nextStatus: OrderStatus | '') {
    const user = userId.trim();
    if (user !== '' && !idSchema.safeParse(user).success) {
      setInvalid(t('admin.options.filter.userInvalid'));
      return;
    }
    setInvalid(null);
    onApply({ status: nextStatus || undefined, userId: user || undefined });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    apply(status);
  }

  return (
    <search>
      <form className="toolbar" onSubmit={submit}>
        <select
          aria-label={t('admin.options.filter.status')}
          name="status"
          value={status}
          onChange={(event) => {
            const next = event.target.value as OrderStatus | '';
            setStatus(next);
            apply(next);
          }}
        >
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
          name="userId"
          inputMode="numeric"
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          maxLength={19}
          autoComplete="off"
        />
        <button type="submit">{t('admin.options.filter.apply')}</button>
        <button type="button" className="secondary" onClick={onRefresh}>
          {t('admin.options.refresh')}
        </button>
      </form>
      <ErrorAlert message={invalid} />
    </search>
  );
}

/**
 * Every user's orders (roles admin, finance and support), newest first, filtered by status and
 * user, a page at a time, each with both of its ticks. `onRefresh` also reloads the house summary.
 */
function OrdersSection({ onRefresh }: { onRefresh: () => void }) {
  const { t } = useI18n();
  const [filter, setFilter] = useState<OrderFilter>({ status: undefined, userId: undefined });

  const fetchPage = useCallback(
    (page: number) => api(listStaffOptionOrdersContract, { query: { page, pageSize: PAGE_SIZE, status: filter.status, userId: filter.userId } }),
    [filter],
  );
  const list = usePagedList(fetchPage, PAGE_SIZE);

  return (
    <section aria-label={t('admin.options.orders.title')} data-testid="options-orders">
      <h3>{t('admin.options.orders.title')}</h3>
      <OrderFilters
        onApply={(next) => {
          setFilter(next);
          list.setPage(1);
        }}
        onRefresh={() => {
          onRefresh();
          void list.load();
        }}
      />
      <ErrorAlert message={list.error} />
      <PagedTable
        list={list}
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
 * finance, support) see every user's orders with both ticks. Each part is asked for only by staff
 * the server would answer. Results come only from recorded ticks: there is deliberately no action
 * of any kind here (no price, tick or result can be set by staff).
 */
export function OptionsPage({ showHouse, showOrders }: { showHouse: boolean; showOrders: boolean }) {
  const { t } = useI18n();
  const house = useHouse(showHouse);
  const reloadHouse = () => void house.load();

  return (
    <section data-testid="options-page">
      <h2>{t('admin.options.title')}</h2>
      <p className="muted">{t('admin.options.intro')}</p>
      <p className="notice" data-testid="options-read-only">
        {t('admin.options.readOnly')}
      </p>
      {showHouse && (
        <>
          <ErrorAlert message={house.error} />
          {house.house && <HouseSummary house={house.house} />}
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
