import { listUsersContract, type PublicUser, setUserStatusContract, type StaffRole, userStatuses } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useState } from 'react';
import { useStaff } from '../../app/staff.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, FieldErrorText, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { SearchForm } from '../../shared/SearchForm.tsx';

const PAGE_SIZE = 20;
const STATUS_EDITORS: readonly StaffRole[] = setUserStatusContract.staffRoles as readonly StaffRole[];

/**
 * A user as this staff member may read them: the chosen name, else the contact exactly as the
 * server sent it, which is masked for roles that do not read contacts in full (ADR 0023).
 */
const userLabel = (user: PublicUser) => user.nickname ?? user.username ?? user.email ?? user.phone ?? `#${user.id}`;
const contactOf = (user: PublicUser) => [user.email, user.phone].filter((each) => each !== null).join(' · ');

/**
 * The user list, newest first, searched by the URL's `q` (/admin/users?q=alice is the link to a
 * user); staff with the status contract's roles change a user's status with a reason (audited).
 */
export function UsersPage() {
  const { t } = useI18n();
  const { roles } = useStaff();
  const listQuery = useListQuery(listUsersContract, PAGE_SIZE);
  const { list, table } = listQuery;
  const [editing, setEditing] = useState<PublicUser | null>(null);
  const canEdit = roles.some((role) => STATUS_EDITORS.includes(role));

  return (
    <section>
      <h2>{t('admin.users.title')}</h2>
      <SearchForm list={listQuery} field="q" label={t('admin.users.search')} maxLength={254} />
      <ErrorAlert error={list.error} />
      {list.data?.contactsMasked && <p className="muted">{t('admin.users.contactsMasked')}</p>}
      <PagedTable
        {...table}
        total="admin.users.total"
        columns={[
          'admin.users.id',
          'admin.users.username',
          'admin.users.contact',
          'admin.users.status',
          'admin.users.language',
          'admin.users.createdAt',
          ...(canEdit ? ['admin.users.actions' as const] : []),
        ]}
        row={(user) => (
          <tr data-testid={`user-row-${user.username}`}>
            <td>{user.id}</td>
            <td>{user.nickname ?? user.username ?? '—'}</td>
            <td>{contactOf(user)}</td>
            <td>
              <span className={`status status-${user.status}`}>{t(`admin.status.${user.status}` as MessageKey)}</span>
            </td>
            <td>{user.language}</td>
            <td>{formatDateTime(user.createdAt)}</td>
            {canEdit && (
              <td>
                <button type="button" onClick={() => setEditing(user)}>
                  {t('admin.users.changeStatus')}
                </button>
              </td>
            )}
          </tr>
        )}
      />
      {editing && <StatusDialog user={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** A status change with the reason the audit log keeps; the list is read again once it is saved. */
function StatusDialog({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const { t } = useI18n();
  const save = useContractMutation(setUserStatusContract, { invalidates: [listUsersContract], onSuccess: onClose });
  const form = useContractForm(bodyOf(setUserStatusContract), { defaultValues: { status: user.status, reason: '' } });
  const { errors } = form.formState;

  return (
    <Dialog
      label={t('admin.users.changeStatus')}
      title={t('admin.statusDialog.title', { username: userLabel(user) })}
      onSubmit={form.handleSubmit((body) => save.mutate({ params: { userId: user.id }, body }))}
      onCancel={onClose}
      submitLabel={t('admin.common.save')}
      busy={save.isPending}
      error={save.error}
    >
      <label>
        {t('admin.users.status')}
        <select {...form.register('status')}>
          {userStatuses.map((each) => (
            <option key={each} value={each}>
              {t(`admin.status.${each}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('admin.statusDialog.reason')}
        <textarea minLength={3} maxLength={500} required aria-describedby="status-reason-error" {...form.register('reason')} />
      </label>
      <FieldErrorText error={errors.reason} id="status-reason-error" />
      <p className="muted">{t('admin.statusDialog.audited')}</p>
    </Dialog>
  );
}
