import { type ContractData, decideVipApplicationContract, listVipApplicationsContract } from '@keel/contracts';
import { useState } from 'react';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { ReasonForm } from '../../shared/ReasonForm.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';

type Application = ContractData<typeof listVipApplicationsContract>['items'][number];
type QueueStatus = Application['status'];

const PAGE_SIZE = 20;
const LIST_PATH = '/vip';
const statuses: QueueStatus[] = ['in_review', 'approved', 'rejected'];

/** Approve (the server checks the published rule at this moment), or reject with the reason the user reads. */
function Decision({ item }: { item: Application }) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  const decide = useContractMutation(decideVipApplicationContract, { invalidates: [listVipApplicationsContract] });
  const form = useContractForm(bodyOf(decideVipApplicationContract), { defaultValues: { decision: 'reject', reason: '' } });
  const params = { applicationId: item.id };
  const busy = decide.isPending;
  return (
    <div className="decision">
      <ErrorAlert error={decide.error} />
      {!rejecting ? (
        <div className="row">
          <button type="button" className="secondary" onClick={() => setRejecting(true)} disabled={busy} data-testid={`vip-reject-${item.id}`}>
            {t('admin.vip.reject')}
          </button>
          <button type="button" onClick={() => decide.mutate({ params, body: { decision: 'approve' } })} disabled={busy} data-testid={`vip-approve-${item.id}`}>
            {t('admin.vip.approve')}
          </button>
        </div>
      ) : (
        <ReasonForm
          label={t('admin.vip.reason')}
          field={form.register('reason')}
          error={form.formState.errors.reason}
          notes={null}
          submitLabel={t('admin.vip.reject')}
          busy={busy}
          onSubmit={form.handleSubmit((body) => decide.mutate({ params, body }))}
          onCancel={() => setRejecting(false)}
        />
      )}
    </div>
  );
}

/**
 * VIP applications (roles admin and compliance; issue 20, ADR 0046): the queue by state, oldest
 * first. Approval grants only what the published rule allows on application, checked by the server
 * against the applicant's standing at that moment; the reviewer and standing are recorded, audited.
 */
export function VipApplicationsPage() {
  const { t } = useI18n();
  const { filter, searchFor, list, table } = useListQuery(listVipApplicationsContract, PAGE_SIZE);
  return (
    <section>
      <h2>{t('admin.vip.title')}</h2>
      <p className="muted">{t('admin.vip.intro')}</p>
      <StatusTabs
        label={t('admin.vip.title')}
        statuses={statuses}
        status={filter.status}
        labelOf={(each) => t(`admin.vip.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <ErrorAlert error={list.error} />
      <PagedTable
        {...table}
        total="admin.verifications.total"
        empty={{ text: 'admin.vip.empty', testId: 'vip-applications-empty' }}
        columns={['admin.vip.submitted', 'admin.vip.user', 'admin.vip.level', 'admin.vip.note', 'admin.vip.standing', 'admin.users.actions']}
        row={(item) => (
          <tr data-testid={`vip-application-${item.userName}`}>
            <td>{formatDateTime(item.submittedAt)}</td>
            <td>
              {item.userName} (#{item.userId})
            </td>
            <td>VIP {item.level}</td>
            <td>{item.note ?? ''}</td>
            <td>
              {item.volume30dUsdt !== null ? `${item.volume30dUsdt} / ${item.balanceUsdt} USDT` : ''}
              {item.reviewedBy ? <div className="muted">{t('admin.vip.reviewedBy', { name: item.reviewedBy })}</div> : null}
              {item.rejectReason ? <div className="muted">{item.rejectReason}</div> : null}
            </td>
            <td>{item.status === 'in_review' ? <Decision item={item} /> : t(`admin.vip.status.${item.status}`)}</td>
          </tr>
        )}
      />
    </section>
  );
}
