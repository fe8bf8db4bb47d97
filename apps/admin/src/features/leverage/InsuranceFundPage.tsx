import { getLeverageInsuranceFundContract, getStaffPositionContract, type LeverageInsuranceFund, pageQuerySchema } from '@keel/contracts';
import { Link } from 'react-router';
import { mayCall } from '../../app/views.ts';
import { useStaff } from '../../app/staff.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractQuery } from '../../shared/queries.ts';
import { Signed } from '../../shared/Signed.tsx';
import { useUrlFilter } from '../../shared/url-filter.ts';
import { Field } from '../finance/finance-shared.tsx';
import { ReadOnlyNotice } from './leverage-shared.tsx';

type Entry = LeverageInsuranceFund['entries']['items'][number];

const PAGE_SIZE = 20;
/** The page in the URL, read through the contract's own query rules. */
const pageSchema = pageQuerySchema;

/**
 * The fund's ledger balance next to what the positions' events sum to (they agree; a difference
 * is flagged), and the balances of the two other leverage platform accounts.
 */
function Balances({ fund }: { fund: LeverageInsuranceFund }) {
  const { t } = useI18n();
  const signed = (amount: string, testId: string) => (
    <>
      <Signed amount={amount} testId={testId} /> {fund.asset}
    </>
  );
  const plain = (amount: string, testId: string) => (
    <>
      <span data-testid={testId}>{amount}</span> {fund.asset}
    </>
  );
  return (
    <section className="card house" aria-label={t('admin.leverage.fund.balances')} data-testid="fund-balances">
      <dl className="fields">
        <Field label={t('admin.leverage.fund.balance')}>{signed(fund.insuranceFund.balance, 'fund-balance')}</Field>
        <Field label={t('admin.leverage.fund.fromEvents')}>{signed(fund.insuranceFund.fromEvents, 'fund-from-events')}</Field>
      </dl>
      {fund.insuranceFund.balance !== fund.insuranceFund.fromEvents && (
        <p className="error" role="alert" data-testid="fund-mismatch">
          {t('admin.leverage.fund.mismatch')}
        </p>
      )}
      <div className="house-groups">
        <div>
          <h4>{t('admin.leverage.fund.movements')}</h4>
          <dl className="fields">
            <Field label={t('admin.leverage.fund.received')}>{plain(fund.insuranceFund.received, 'fund-received')}</Field>
            <Field label={t('admin.leverage.fund.paid')}>{plain(fund.insuranceFund.paid, 'fund-paid')}</Field>
            <Field label={t('admin.leverage.fund.liquidations')} testId="fund-liquidations">
              {fund.insuranceFund.liquidations}
            </Field>
          </dl>
        </div>
        <div>
          <h4>{t('admin.leverage.fund.accounts')}</h4>
          <dl className="fields">
            <Field label={t('admin.leverage.fund.house')}>{signed(fund.house.balance, 'house-balance')}</Field>
            <Field label={t('admin.leverage.fund.fees')}>{plain(fund.fees.balance, 'fees-balance')}</Field>
          </dl>
        </div>
      </div>
    </section>
  );
}

/**
 * The insurance fund (roles admin and finance), read only: its balance, what liquidations paid
 * into it and what it bore of losses beyond positions' margins, the leverage house and fee
 * accounts, and the fund's journal entries newest first, a page at a time (the page in the URL),
 * each with the position it refers to — a link to it for staff who may read positions.
 */
export function InsuranceFundPage() {
  const { t } = useI18n();
  const { roles } = useStaff();
  const linkPositions = mayCall(roles, getStaffPositionContract);
  const { filter, setFilter } = useUrlFilter(pageSchema);
  const fund = useContractQuery(getLeverageInsuranceFundContract, { query: { page: filter.page, pageSize: PAGE_SIZE } }, { keepPrevious: true, staleTime: 0 });

  return (
    <section data-testid="insurance-fund-page">
      <h2>{t('admin.leverage.fund.title')}</h2>
      <p className="muted">{t('admin.leverage.fund.intro')}</p>
      <ReadOnlyNotice />
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => void fund.refetch()}>
          {t('admin.leverage.refresh')}
        </button>
      </div>
      <ErrorAlert error={fund.error} />
      {fund.data && <Balances fund={fund.data} />}
      <h3>{t('admin.leverage.fund.entries')}</h3>
      <PagedTable<Entry>
        result={fund.data?.entries}
        page={filter.page}
        pageSize={PAGE_SIZE}
        onPage={(page) => setFilter({ page })}
        total="admin.leverage.fund.entriesTotal"
        empty={{ text: 'admin.leverage.fund.empty', testId: 'fund-entries-empty' }}
        rowKey={(entry) => entry.entryId}
        columns={['admin.leverage.fund.col.entry', 'admin.leverage.fund.col.time', 'admin.leverage.fund.col.reason', 'admin.leverage.fund.col.position', 'admin.leverage.fund.col.amount']}
        row={(entry) => (
          <tr data-testid={`fund-entry-${entry.entryId}`}>
            <td>#{entry.entryId}</td>
            <td data-testid="entry-time">{formatDateTime(entry.createdAt)}</td>
            <td>
              <code data-testid="entry-reason">{entry.reason}</code>
            </td>
            <td data-testid="entry-position">
              {entry.positionNo && entry.referenceId ? (
                linkPositions ? (
                  <Link to={`/leverage/positions/${encodeURIComponent(entry.referenceId)}`}>{entry.positionNo}</Link>
                ) : (
                  entry.positionNo
                )
              ) : (
                entry.referenceId && `${entry.referenceType ?? ''} #${entry.referenceId}`
              )}
            </td>
            <td>
              <Signed amount={entry.amount} testId="entry-amount" /> {fund.data?.asset}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
