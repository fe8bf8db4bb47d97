import {
  createStaffContract,
  disableStaffContract,
  enableStaffContract,
  endStaffSessionContract,
  listStaffContract,
  listStaffSessionsContract,
  resetStaffPasswordContract,
  setStaffRolesContract,
  type StaffAccount,
  type StaffRole,
  staffRoles,
} from '@keel/contracts';
import { type FormEvent, useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { SessionsTable } from './SessionsTable.tsx';

const PAGE_SIZE = 20;

type Issued = { staff: StaffAccount; oneTimePassword: string; expiresAt: string };
type Pending = { kind: 'disable' | 'enable' | 'reset'; staff: StaffAccount };

/**
 * Staff accounts (role admin, ADR 0020): the list with roles and state; create with roles, which
 * shows the one-time password once; edit roles; disable and enable; reset the password; each
 * member's sessions with revoke. Nobody acts on their own account here (the server refuses it).
 */
export function StaffPage({ me }: { me: { id: string } }) {
  const { t, describeError } = useI18n();
  const [query, setQuery] = useState('');
  const [applied, setApplied] = useState('');
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [editing, setEditing] = useState<StaffAccount | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [pendingError, setPendingError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sessionsOf, setSessionsOf] = useState<StaffAccount | null>(null);

  const fetchPage = useCallback((page: number) => api(listStaffContract, { query: { page, pageSize: PAGE_SIZE, q: applied || undefined } }), [applied]);
  const list = usePagedList(fetchPage, PAGE_SIZE);

  function search(event: FormEvent) {
    event.preventDefault();
    // The same search again reloads: staff change state (log in, set up) while the page is open.
    if (query.trim() === applied) return void list.load();
    list.setPage(1);
    setApplied(query.trim());
  }

  async function runPending() {
    if (!pending) return;
    setBusy(true);
    setPendingError(null);
    try {
      const params = { staffId: pending.staff.id };
      if (pending.kind === 'reset') setIssued(await api(resetStaffPasswordContract, { params }));
      else await api(pending.kind === 'disable' ? disableStaffContract : enableStaffContract, { params });
      setPending(null);
      await list.load();
    } catch (caught) {
      setPendingError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  const loadSessions = useCallback(() => api(listStaffSessionsContract, { params: { staffId: sessionsOf?.id ?? '0' } }), [sessionsOf]);
  const revokeSession = useCallback(
    async (sessionId: string) => {
      await api(endStaffSessionContract, { params: { staffId: sessionsOf?.id ?? '0', sessionId } });
      await list.load();
    },
    [sessionsOf, list.load],
  );

  return (
    <section data-testid="staff-page">
      <h2>{t('admin.staff.title')}</h2>
      <search>
        <form className="toolbar" onSubmit={search}>
          <input aria-label={t('admin.staff.search')} placeholder={t('admin.staff.search')} value={query} onChange={(e) => setQuery(e.target.value)} maxLength={32} />
          <button type="submit">{t('admin.users.searchButton')}</button>
          <button type="button" onClick={() => setCreating(true)}>
            {t('admin.staff.create')}
          </button>
        </form>
      </search>
      {issued && <OneTimePasswordCard issued={issued} onDone={() => setIssued(null)} />}
      {sessionsOf && (
        <DetailCard
          label={t('admin.staff.sessionsOf', { username: sessionsOf.username })}
          title={t('admin.staff.sessionsOf', { username: sessionsOf.username })}
          closeLabel={t('admin.staff.close')}
          onClose={() => setSessionsOf(null)}
          testId="staff-sessions"
        >
          <SessionsTable key={sessionsOf.id} load={loadSessions} revoke={revokeSession} />
        </DetailCard>
      )}
      <ErrorAlert message={list.error} />
      <PagedTable
        list={list}
        total="admin.staff.total"
        columns={['admin.staff.username', 'admin.staff.roles', 'admin.staff.state', 'admin.staff.lastSeen', 'admin.staff.openSessions', 'admin.staff.actions']}
        row={(staff) => {
          const self = staff.id === me.id;
          return (
            <tr data-testid={`staff-row-${staff.username}`}>
              <td>
                {staff.username}
                {self && <span className="muted"> {t('admin.staff.you')}</span>}
              </td>
              <td data-testid="staff-roles">{staff.roles.map((role) => t(`admin.role.${role}`)).join(', ')}</td>
              <td data-testid="staff-state">
                <span className={`status status-${staff.active ? 'active' : 'banned'}`}>{t(staff.active ? 'admin.staff.active' : 'admin.staff.disabled')}</span>
                {staff.setupStep && <div className="muted">{t(`admin.staff.setup.${staff.setupStep}`)}</div>}
                {staff.oneTimePasswordExpiresAt && (
                  <div className="muted">{t('admin.staff.oneTimeUntil', { time: formatDateTime(staff.oneTimePasswordExpiresAt) })}</div>
                )}
              </td>
              <td>{staff.lastSeenAt ? formatDateTime(staff.lastSeenAt) : ''}</td>
              <td>{staff.activeSessions}</td>
              <td className="actions">
                {!self && (
                  <>
                    <button type="button" className="secondary" onClick={() => setEditing(staff)}>
                      {t('admin.staff.editRoles')}
                    </button>
                    <button type="button" className="secondary" onClick={() => setPending({ kind: staff.active ? 'disable' : 'enable', staff })}>
                      {t(staff.active ? 'admin.staff.disable' : 'admin.staff.enable')}
                    </button>
                    <button type="button" className="secondary" onClick={() => setPending({ kind: 'reset', staff })}>
                      {t('admin.staff.reset')}
                    </button>
                  </>
                )}
                <button type="button" className="secondary" onClick={() => setSessionsOf(staff)}>
                  {t('admin.staff.sessions')}
                </button>
              </td>
            </tr>
          );
        }}
      />
      {creating && (
        <CreateDialog
          onClose={() => setCreating(false)}
          onCreated={(result) => {
            setCreating(false);
            setIssued(result);
            void list.load();
          }}
        />
      )}
      {editing && (
        <RolesDialog
          staff={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.load();
          }}
        />
      )}
      {pending && (
        <ConfirmDialog
          title={t(`admin.staff.${pending.kind}`)}
          text={t(`admin.staff.${pending.kind}Confirm`, { username: pending.staff.username })}
          confirmLabel={t(`admin.staff.${pending.kind}`)}
          danger={pending.kind !== 'enable'}
          busy={busy}
          error={pendingError}
          onConfirm={() => void runPending()}
          onCancel={() => {
            setPending(null);
            setPendingError(null);
          }}
        />
      )}
    </section>
  );
}

/** The role checkboxes of the create and edit dialogs. */
function RolePicker({ roles, onChange }: { roles: readonly StaffRole[]; onChange: (roles: StaffRole[]) => void }) {
  const { t } = useI18n();
  return (
    <fieldset className="roles">
      <legend>{t('admin.staff.roles')}</legend>
      {staffRoles.map((role) => (
        <label key={role} className="check">
          <input
            type="checkbox"
            name="roles"
            value={role}
            checked={roles.includes(role)}
            onChange={(e) => onChange(e.target.checked ? [...roles, role] : roles.filter((each) => each !== role))}
          />
          {t(`admin.role.${role}`)}
        </label>
      ))}
      <span className="muted">{t('admin.staff.rolesHint')}</span>
    </fieldset>
  );
}

function CreateDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (issued: Issued) => void }) {
  const { t, describeError } = useI18n();
  const [username, setUsername] = useState('');
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (roles.length === 0) return setError(t('admin.staff.rolesHint'));
    setBusy(true);
    setError(null);
    try {
      onCreated(await api(createStaffContract, { body: { username: username.trim(), roles } }));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="dialog-backdrop">
      <form className="card dialog" onSubmit={create} aria-label={t('admin.staff.create')}>
        <h3>{t('admin.staff.create')}</h3>
        <label>
          {t('admin.staff.username')}
          <input
            name="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            pattern="[A-Za-z0-9][A-Za-z0-9._\-]{2,31}"
            maxLength={32}
            autoComplete="off"
            required
            aria-describedby="username-hint"
          />
        </label>
        <p id="username-hint" className="muted hint">
          {t('admin.staff.usernameHint')}
        </p>
        <RolePicker roles={roles} onChange={setRoles} />
        <p className="muted">{t('admin.staff.createNote')}</p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="secondary" onClick={onClose}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={busy}>
            {t('admin.staff.createSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}

function RolesDialog({ staff, onClose, onSaved }: { staff: StaffAccount; onClose: () => void; onSaved: () => void }) {
  const { t, describeError } = useI18n();
  const [roles, setRoles] = useState<StaffRole[]>(staff.roles);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (roles.length === 0) return setError(t('admin.staff.rolesHint'));
    setBusy(true);
    setError(null);
    try {
      await api(setStaffRolesContract, { params: { staffId: staff.id }, body: { roles } });
      onSaved();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="dialog-backdrop">
      <form className="card dialog" onSubmit={save} aria-label={t('admin.staff.editRoles')}>
        <h3>{t('admin.staff.rolesOf', { username: staff.username })}</h3>
        <RolePicker roles={roles} onChange={setRoles} />
        <p className="muted">{t('admin.staff.rolesNote')}</p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="secondary" onClick={onClose}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={busy}>
            {t('admin.common.save')}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The one-time password, shown once (the server keeps only its hash), with a copy button. */
function OneTimePasswordCard({ issued, onDone }: { issued: Issued; onDone: () => void }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(issued.oneTimePassword);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <section className="card detail" aria-label={t('admin.staff.otpTitle', { username: issued.staff.username })} data-testid="one-time-password-card">
      <h3>{t('admin.staff.otpTitle', { username: issued.staff.username })}</h3>
      <p>{t('admin.staff.otpBody', { username: issued.staff.username, time: formatDateTime(issued.expiresAt) })}</p>
      <div className="row start">
        <code className="secret" data-testid="one-time-password">
          {issued.oneTimePassword}
        </code>
        <button type="button" onClick={() => void copy()}>
          {t('admin.staff.copy')}
        </button>
      </div>
      {copied && (
        <p className={copied === 'yes' ? 'muted' : 'error'} role="status">
          {t(copied === 'yes' ? 'admin.staff.copied' : 'admin.staff.copyFailed')}
        </p>
      )}
      <div className="row">
        <button type="button" className="secondary" onClick={onDone}>
          {t('admin.staff.otpDone')}
        </button>
      </div>
    </section>
  );
}
