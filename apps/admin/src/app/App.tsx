import {
  getOptionsHouseContract,
  listAuditContract,
  listNotificationsContract,
  listP2pAppealsContract,
  listStaffDepositsContract,
  listStaffOptionOrdersContract,
  listStaffWithdrawalsContract,
  listVerificationsContract,
  staffLogoutContract,
  staffMeContract,
  type StaffRole,
} from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { AppealsPage } from '../features/appeals/AppealsPage.tsx';
import { AuditPage } from '../features/audit/AuditPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { DepositsPage } from '../features/finance/DepositsPage.tsx';
import { WithdrawalsPage } from '../features/finance/WithdrawalsPage.tsx';
import { OptionsPage } from '../features/options/OptionsPage.tsx';
import { OutboxPage } from '../features/outbox/OutboxPage.tsx';
import { UsersPage } from '../features/users/UsersPage.tsx';
import { VerificationsPage } from '../features/verifications/VerificationsPage.tsx';
import { api, setSessionLostHandler, staffToken } from '../shared/api.ts';
import { useI18n } from '../shared/i18n.tsx';
import { LanguageSelect } from '../shared/LanguageSelect.tsx';

type Staff = { id: string; username: string; roles: StaffRole[] };
type View = 'users' | 'audit' | 'verifications' | 'outbox' | 'deposits' | 'withdrawals' | 'appeals' | 'options';

const allowed = (roles: readonly StaffRole[], contract: { staffRoles?: readonly string[] }) =>
  roles.some((role) => (contract.staffRoles ?? []).includes(role));

export function App() {
  const { t } = useI18n();
  const [staff, setStaff] = useState<Staff | null>(null);
  const [checking, setChecking] = useState(() => staffToken.get() !== null);
  const [view, setView] = useState<View>('users');

  const loadMe = useCallback(async () => {
    try {
      setStaff(await api(staffMeContract));
    } catch {
      setStaff(null);
    } finally {
      setChecking(false);
    }
  }, []);

  useEffect(() => {
    setSessionLostHandler(() => setStaff(null));
    if (staffToken.get()) void loadMe();
  }, [loadMe]);

  if (checking) return <p className="muted center">{t('admin.loading')}</p>;
  if (!staff) return <LoginPage onLoggedIn={loadMe} />;

  const canReadAudit = allowed(staff.roles, listAuditContract);
  // Pages the server would refuse are not offered (the server refuses them anyway).
  const canReview = allowed(staff.roles, listVerificationsContract);
  const canReadOutbox = allowed(staff.roles, listNotificationsContract);
  // The finance area (roles admin and finance): the deposit and withdrawal queues.
  const canReviewDeposits = allowed(staff.roles, listStaffDepositsContract);
  const canReviewWithdrawals = allowed(staff.roles, listStaffWithdrawalsContract);
  // P2P appeals (roles admin and support): the frozen escrow of an appealed order.
  const canResolveAppeals = allowed(staff.roles, listP2pAppealsContract);
  // Contracts, read only: the house's profit and loss (admin, finance) and every user's orders (admin, finance, support).
  const canReadOptionsHouse = allowed(staff.roles, getOptionsHouseContract);
  const canReadOptionOrders = allowed(staff.roles, listStaffOptionOrdersContract);
  const canReadOptions = canReadOptionsHouse || canReadOptionOrders;
  async function logout() {
    await api(staffLogoutContract).catch(() => {});
    staffToken.clear();
    setStaff(null);
  }

  return (
    <div className="shell">
      <header>
        <strong>{t('admin.title')}</strong>
        <nav>
          <button type="button" className={view === 'users' ? 'tab active' : 'tab'} onClick={() => setView('users')}>
            {t('admin.nav.users')}
          </button>
          {canReadAudit && (
            <button type="button" className={view === 'audit' ? 'tab active' : 'tab'} onClick={() => setView('audit')}>
              {t('admin.nav.audit')}
            </button>
          )}
          {canReview && (
            <button type="button" className={view === 'verifications' ? 'tab active' : 'tab'} onClick={() => setView('verifications')}>
              {t('admin.verifications.nav')}
            </button>
          )}
          {canReadOutbox && (
            <button type="button" className={view === 'outbox' ? 'tab active' : 'tab'} onClick={() => setView('outbox')}>
              {t('admin.outbox.nav')}
            </button>
          )}
          {canReviewDeposits && (
            <button type="button" className={view === 'deposits' ? 'tab active' : 'tab'} onClick={() => setView('deposits')}>
              {t('admin.finance.nav.deposits')}
            </button>
          )}
          {canReviewWithdrawals && (
            <button type="button" className={view === 'withdrawals' ? 'tab active' : 'tab'} onClick={() => setView('withdrawals')}>
              {t('admin.finance.nav.withdrawals')}
            </button>
          )}
          {canResolveAppeals && (
            <button type="button" className={view === 'appeals' ? 'tab active' : 'tab'} onClick={() => setView('appeals')}>
              {t('admin.appeals.nav')}
            </button>
          )}
          {canReadOptions && (
            <button type="button" className={view === 'options' ? 'tab active' : 'tab'} onClick={() => setView('options')}>
              {t('admin.options.nav')}
            </button>
          )}
        </nav>
        <span className="who">
          {staff.username} · {staff.roles.map((role) => t(`admin.role.${role}`)).join(', ')}
        </span>
        <LanguageSelect />
        <button type="button" className="secondary" onClick={logout}>
          {t('admin.logout')}
        </button>
      </header>
      <main>
        {view === 'users' && <UsersPage roles={staff.roles} />}
        {view === 'audit' && canReadAudit && <AuditPage />}
        {view === 'verifications' && canReview && <VerificationsPage />}
        {view === 'outbox' && canReadOutbox && <OutboxPage />}
        {view === 'deposits' && canReviewDeposits && <DepositsPage staff={staff} />}
        {view === 'withdrawals' && canReviewWithdrawals && <WithdrawalsPage staff={staff} />}
        {view === 'appeals' && canResolveAppeals && <AppealsPage />}
        {view === 'options' && canReadOptions && <OptionsPage showHouse={canReadOptionsHouse} showOrders={canReadOptionOrders} />}
      </main>
    </div>
  );
}
