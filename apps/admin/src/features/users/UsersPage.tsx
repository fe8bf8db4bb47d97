import { listUsersContract, type PublicUser, setUserStatusContract, type StaffRole, type UserStatus, userStatuses } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';

const PAGE_SIZE = 20;
const STATUS_EDITORS: readonly StaffRole[] = setUserStatusContract.staffRoles as readonly StaffRole[];

/**
 * A user as this staff member may read them: the chosen name, else the contact exactly as the
 * server sent it, which is masked for roles that do not read contacts in full (ADR 0023).
 */
const userLabel = (user: PublicUser) => user.nickname ?? user.username ?? user.email ?? user.phone ?? `#${user.id}`;
const contactOf = (user: PublicUser) => [user.email, user.phone].filter((each) => each !== null).join(' · ');

export function UsersPage({ roles }: { roles: readonly StaffRole[] }) {
  const { t } = useI18n();
  const [query, setQuery] = useState('');
  const [appliedQuery, setAppliedQuery] = useState('');
  const [editing, setEditing] = useState<PublicUser | null>(null);
  const canEdit = roles.some((role) => STATUS_EDITORS.includes(role));

  const fetchPage = useCallback(
    (page: number) => api(listUsersContract, { query: { page, pageSize: PAGE_SIZE, q: appliedQuery || undefined } }),
    [appliedQuery],
  );
  const list = usePagedList(fetchPage, PAGE_SIZE);

  function search(event: FormEvent) {
    event.preventDefault();
    list.setPage(1);
    setAppliedQuery(query.trim());
  }

  return (
    <section>
      <h2>{t('admin.users.title')}</h2>
      <search>
        <form className="toolbar" onSubmit={search}>
        <input
          aria-label={t('admin.users.search')}
          placeholder={t('admin.users.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          maxLength={254}
        />
          <button type="submit">{t('admin.users.searchButton')}</button>
        </form>
      </search>
      <ErrorAlert message={list.error} />
      {list.result?.contactsMasked && <p className="muted">{t('admin.users.contactsMasked')}</p>}
      <PagedTable
        list={list}
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
      {editing && (
        <StatusDialog
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.load();
          }}
        />
      )}
    </section>
  );
}

function StatusDialog({ user, onClose, onSaved }: { user: PublicUser; onClose: () => void; onSaved: () => void }) {
  const { t, describeError } = useI18n();
  const [status, setStatus] = useState<UserStatus>(user.status);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      await api(setUserStatusContract, { params: { userId: user.id }, body: { status, reason } });
      onSaved();
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  return (
    <div className="dialog-backdrop">
      <form className="card dialog" onSubmit={save} aria-label={t('admin.users.changeStatus')}>
        <h3>{t('admin.statusDialog.title', { username: userLabel(user) })}</h3>
        <label>
          {t('admin.users.status')}
          <select name="status" value={status} onChange={(e) => setStatus(e.target.value as UserStatus)}>
            {userStatuses.map((each) => (
              <option key={each} value={each}>
                {t(`admin.status.${each}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.statusDialog.reason')}
          <textarea name="reason" value={reason} onChange={(e) => setReason(e.target.value)} minLength={3} maxLength={500} required />
        </label>
        <p className="muted">{t('admin.statusDialog.audited')}</p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="secondary" onClick={onClose}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit">{t('admin.common.save')}</button>
        </div>
      </form>
    </div>
  );
}
