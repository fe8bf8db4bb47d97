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
  staffRoles,
} from '@keel/contracts';
import { useState } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import { useStaff } from '../../app/staff.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { Dialog } from '../../shared/Dialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, FieldErrorText, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation, useContractQuery } from '../../shared/queries.ts';
import { useRecordLinks } from '../../shared/record-route.tsx';
import { SearchForm } from '../../shared/SearchForm.tsx';
import { SessionsTable } from './SessionsTable.tsx';

const PAGE_SIZE = 20;
const LIST_PATH = '/staff';

type Issued = { staff: StaffAccount; oneTimePassword: string; expiresAt: string };
type Pending = { kind: 'disable' | 'enable' | 'reset'; staff: StaffAccount };

/** Every change of an account shows in the list (roles, state, sessions) and in its sessions. */
const accountChanges = { invalidates: [listStaffContract, listStaffSessionsContract] };

/** What the staff list gives a member's sessions opened under it: the accounts it shows, to name the member. */
type StaffOutlet = { accounts: readonly StaffAccount[] };

/**
 * Staff accounts (role admin, ADR 0020): the list with roles and state (search and page in the
 * URL); create with roles, which shows the one-time password once; edit roles; disable and
 * enable; reset the password; each member's sessions at their own URL (/admin/staff/7) with
 * revoke. Nobody acts on their own account here (the server refuses it).
 */
export function StaffPage() {
  const { t } = useI18n();
  const me = useStaff();
  const listQuery = useListQuery(listStaffContract, PAGE_SIZE);
  const { list, table } = listQuery;
  const { recordTo } = useRecordLinks(LIST_PATH);
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [editing, setEditing] = useState<StaffAccount | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const actions = {
    disable: useContractMutation(disableStaffContract, accountChanges),
    enable: useContractMutation(enableStaffContract, accountChanges),
    reset: useContractMutation(resetStaffPasswordContract, { ...accountChanges, onSuccess: setIssued }),
  };
  const action = pending ? actions[pending.kind] : null;

  return (
    <section data-testid="staff-page">
      <h2>{t('admin.staff.title')}</h2>
      <SearchForm list={listQuery} field="q" label={t('admin.staff.search')} maxLength={32}>
        <button type="button" onClick={() => setCreating(true)}>
          {t('admin.staff.create')}
        </button>
      </SearchForm>
      {issued && <OneTimePasswordCard issued={issued} onDone={() => setIssued(null)} />}
      <Outlet context={{ accounts: list.data?.items ?? [] } satisfies StaffOutlet} />
      <ErrorAlert error={list.error} />
      <PagedTable
        {...table}
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
                <Link className="button secondary" to={recordTo(staff.id)}>
                  {t('admin.staff.sessions')}
                </Link>
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
          }}
        />
      )}
      {editing && <RolesDialog staff={editing} onClose={() => setEditing(null)} />}
      {pending && action && (
        <ConfirmDialog
          title={t(`admin.staff.${pending.kind}`)}
          text={t(`admin.staff.${pending.kind}Confirm`, { username: pending.staff.username })}
          confirmLabel={t(`admin.staff.${pending.kind}`)}
          danger={pending.kind !== 'enable'}
          busy={action.isPending}
          error={action.error}
          onConfirm={() => action.mutate({ params: { staffId: pending.staff.id } }, { onSuccess: () => setPending(null) })}
          onCancel={() => {
            action.reset();
            setPending(null);
          }}
        />
      )}
    </section>
  );
}

/** /admin/staff/:staffId — a member's open sessions, each revocable, above the staff list. */
export function StaffSessionsRoute() {
  const { t } = useI18n();
  const { staffId = '' } = useParams();
  const { accounts } = useOutletContext<StaffOutlet>();
  const { close } = useRecordLinks(LIST_PATH);
  const params = { staffId };
  const sessions = useContractQuery(listStaffSessionsContract, { params }, { staleTime: 0 });
  // Ending a session changes the member's open-session count in the list too.
  const end = useContractMutation(endStaffSessionContract, accountChanges);
  // Named as the list names them; a link to a member the list does not show names them by id.
  const name = accounts.find((account) => account.id === staffId)?.username ?? `#${staffId}`;
  const title = t('admin.staff.sessionsOf', { username: name });
  return (
    <DetailCard label={title} title={title} closeLabel={t('admin.staff.close')} onClose={close} testId="staff-sessions">
      <SessionsTable
        sessions={sessions}
        revoke={{ run: (sessionId) => end.mutateAsync({ params: { ...params, sessionId } }), busy: end.isPending, error: end.error }}
      />
    </DetailCard>
  );
}

/** The role checkboxes of the create and edit dialogs (the contract's rule: one role or more). */
function RolePicker({ field, error }: { field: UseFormRegisterReturn<'roles'>; error: FieldError | undefined }) {
  const { t } = useI18n();
  return (
    <fieldset className="roles" aria-describedby="roles-hint roles-error">
      <legend>{t('admin.staff.roles')}</legend>
      {staffRoles.map((role) => (
        <label key={role} className="check">
          <input type="checkbox" value={role} {...field} />
          {t(`admin.role.${role}`)}
        </label>
      ))}
      <span className="muted" id="roles-hint">
        {t('admin.staff.rolesHint')}
      </span>
      <FieldErrorText error={error} id="roles-error" />
    </fieldset>
  );
}

function CreateDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (issued: Issued) => void }) {
  const { t } = useI18n();
  const create = useContractMutation(createStaffContract, { invalidates: [listStaffContract], onSuccess: onCreated });
  const form = useContractForm(bodyOf(createStaffContract), {
    defaultValues: { username: '', roles: [] },
  });
  const { errors } = form.formState;

  return (
    <Dialog
      label={t('admin.staff.create')}
      title={t('admin.staff.create')}
      onSubmit={form.handleSubmit((body) => create.mutate({ body }))}
      onCancel={onClose}
      submitLabel={t('admin.staff.createSubmit')}
      busy={create.isPending}
      error={create.error}
    >
      <label>
        {t('admin.staff.username')}
        <input maxLength={32} autoComplete="off" required aria-describedby="username-hint username-error" {...form.register('username')} />
      </label>
      <p id="username-hint" className="muted hint">
        {t('admin.staff.usernameHint')}
      </p>
      <FieldErrorText error={errors.username} id="username-error" />
      <RolePicker field={form.register('roles')} error={errors.roles as FieldError | undefined} />
      <p className="muted">{t('admin.staff.createNote')}</p>
    </Dialog>
  );
}

function RolesDialog({ staff, onClose }: { staff: StaffAccount; onClose: () => void }) {
  const { t } = useI18n();
  const save = useContractMutation(setStaffRolesContract, { invalidates: [listStaffContract], onSuccess: onClose });
  const form = useContractForm(bodyOf(setStaffRolesContract), { defaultValues: { roles: staff.roles } });

  return (
    <Dialog
      label={t('admin.staff.editRoles')}
      title={t('admin.staff.rolesOf', { username: staff.username })}
      onSubmit={form.handleSubmit((body) => save.mutate({ params: { staffId: staff.id }, body }))}
      onCancel={onClose}
      submitLabel={t('admin.common.save')}
      busy={save.isPending}
      error={save.error}
    >
      <RolePicker field={form.register('roles')} error={form.formState.errors.roles as FieldError | undefined} />
      <p className="muted">{t('admin.staff.rolesNote')}</p>
    </Dialog>
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
