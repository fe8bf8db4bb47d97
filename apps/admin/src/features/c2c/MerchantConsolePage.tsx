import { getMerchantProfileContract, listMerchantRequestsContract, saveMerchantProfileContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation, useContractQuery } from '../../shared/queries.ts';
import { Signed } from '../../shared/Signed.tsx';
import { floatReasonKey, isProfileMissing, type MerchantProfile, type MerchantRequest, profileWithOnline } from './c2c-console.ts';
import { StatusBadge } from './c2c-parts.tsx';
import { type ConsoleOutlet, useConsole } from './console-outlet.ts';

export { MerchantProfileTab } from './MerchantProfileForm.tsx';
export { MerchantWorkTab } from './MerchantWork.tsx';

/** How often the profile (the float, the online state) is read again while the console is open. */
const PROFILE_POLL_MS = 10_000;
const HISTORY_PAGE_SIZE = 20;

/** The console's tabs, each at its own URL under /admin/c2c/merchant. */
const tabs = [
  { to: '', end: true, label: 'admin.c2c.tab.work', testId: 'c2c-tab-work' },
  { to: 'profile', end: false, label: 'admin.c2c.tab.profile', testId: 'c2c-tab-profile' },
  { to: 'float', end: false, label: 'admin.c2c.tab.float', testId: 'c2c-tab-float' },
  { to: 'history', end: false, label: 'admin.c2c.tab.history', testId: 'c2c-tab-history' },
] as const;

/**
 * The merchant console (issue 19, ADR 0043; staff with the merchant role, the contracts'
 * `staffRoles`): above every tab the merchant's state — the name users see, online or offline
 * (switched here at once, or with the profile), the float's free and held USDT — then the tabs:
 * the work (offers to answer within their window, orders in progress), the profile and terms per
 * country, the float's entries, and the history. The server decides every step and every amount.
 */
export function MerchantConsolePage() {
  const { t } = useI18n();
  const profileQuery = useContractQuery(getMerchantProfileContract, undefined, { staleTime: 0, refetchInterval: PROFILE_POLL_MS });
  const missing = isProfileMissing(profileQuery.error);
  const profile = profileQuery.data ?? null;
  const loading = profileQuery.isPending && !missing;

  return (
    <section data-testid="c2c-merchant-page">
      <h2>{t('admin.c2c.merchant.title')}</h2>
      <p className="muted">{t('admin.c2c.merchant.intro')}</p>
      {!missing && <ErrorAlert error={profileQuery.error} />}
      <MerchantStatus profile={profile} missing={missing} />
      <nav className="toolbar" aria-label={t('admin.c2c.tab.label')}>
        {tabs.map((tab) => (
          <NavLink key={tab.testId} to={tab.to} end={tab.end} className={({ isActive }) => (isActive ? 'tab active' : 'tab')} data-testid={tab.testId}>
            {t(tab.label)}
          </NavLink>
        ))}
      </nav>
      {loading ? <p className="muted">{t('admin.loading')}</p> : <Outlet context={{ profile, loading } satisfies ConsoleOutlet} />}
    </section>
  );
}

/**
 * The merchant's state above every tab: before the first save a note that users see nothing of
 * them yet; then the name, online or offline with the switch (it saves the profile as it is, with
 * only the switch changed), and the float.
 */
function MerchantStatus({ profile, missing }: { profile: MerchantProfile | null; missing: boolean }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const save = useContractMutation(saveMerchantProfileContract, {
    invalidates: [listMerchantRequestsContract],
    onSuccess: (saved) => {
      client.setQueryData(contractKey(getMerchantProfileContract, {}), saved);
    },
  });
  if (!profile) {
    if (!missing) return null;
    return (
      <p className="notice" data-testid="c2c-profile-missing">
        {t('admin.c2c.merchant.noProfile')}
      </p>
    );
  }
  const online = profile.online;
  return (
    <div className="card c2c-status" data-testid="c2c-merchant-status">
      <div className="row start">
        <strong data-testid="c2c-merchant-name">{profile.displayName}</strong>
        <span className={`status ${online ? 'status-active' : 'status-cancelled'}`} data-testid="c2c-online-state" data-online={online}>
          {t(online ? 'admin.c2c.online' : 'admin.c2c.offline')}
        </span>
        <button
          type="button"
          className={online ? 'secondary' : undefined}
          disabled={save.isPending}
          onClick={() => save.mutate({ body: profileWithOnline(profile, !online) })}
          data-testid="c2c-online-toggle"
          aria-pressed={online}
        >
          {t(online ? 'admin.c2c.goOffline' : 'admin.c2c.goOnline')}
        </button>
      </div>
      <p className="muted">{t(online ? 'admin.c2c.onlineHint' : 'admin.c2c.offlineHint')}</p>
      <p data-testid="c2c-float-summary">
        {t('admin.c2c.float.summary', { available: profile.float.available, held: profile.float.held })}
      </p>
      <ErrorAlert error={save.error} />
    </div>
  );
}

/** /admin/c2c/merchant/float — the float's free and held USDT and its latest entries, newest first. */
export function MerchantFloatTab() {
  const { t } = useI18n();
  const { profile } = useConsole();
  if (!profile) {
    return (
      <p className="muted" data-testid="c2c-float-none">
        {t('admin.c2c.float.none')}
      </p>
    );
  }
  const { float } = profile;
  return (
    <section aria-label={t('admin.c2c.float.title')} data-testid="c2c-float">
      <h3>{t('admin.c2c.float.title')}</h3>
      <p className="muted">{t('admin.c2c.float.intro')}</p>
      <dl className="fields">
        <dt>{t('admin.c2c.float.available')}</dt>
        <dd data-testid="c2c-float-available">{float.available} USDT</dd>
        <dt>{t('admin.c2c.float.held')}</dt>
        <dd data-testid="c2c-float-held">{float.held} USDT</dd>
      </dl>
      <h4>{t('admin.c2c.float.entries')}</h4>
      {float.entries.length === 0 ? (
        <p className="muted" data-testid="c2c-float-entries-empty">
          {t('admin.c2c.float.noEntries')}
        </p>
      ) : (
        <table data-testid="c2c-float-entries">
          <thead>
            <tr>
              <th>{t('admin.c2c.float.col.entry')}</th>
              <th>{t('admin.c2c.float.col.time')}</th>
              <th>{t('admin.c2c.float.col.reason')}</th>
              <th>{t('admin.c2c.float.col.available')}</th>
              <th>{t('admin.c2c.float.col.held')}</th>
            </tr>
          </thead>
          <tbody>
            {float.entries.map((entry) => {
              const reason = floatReasonKey(entry.reason);
              return (
                <tr key={entry.entryId} data-testid={`c2c-float-entry-${entry.entryId}`} data-reason={entry.reason}>
                  <td>#{entry.entryId}</td>
                  <td>{formatEpochMs(entry.createdAtMs)}</td>
                  <td>
                    {reason ? t(reason) : <code>{entry.reason}</code>}
                    {entry.memo && (
                      <div className="muted chat-text" dir="auto">
                        {entry.memo}
                      </div>
                    )}
                  </td>
                  <td>
                    <Signed amount={entry.available} />
                  </td>
                  <td>
                    <Signed amount={entry.frozen} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** /admin/c2c/merchant/history — the merchant's ended orders, newest first, the page in the URL. */
export function MerchantHistoryTab() {
  const { t } = useI18n();
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const history = useContractQuery(
    listMerchantRequestsContract,
    { query: { state: 'history', page, pageSize: HISTORY_PAGE_SIZE } },
    { keepPrevious: true, staleTime: 0 },
  );
  return (
    <section aria-label={t('admin.c2c.history.title')} data-testid="c2c-history">
      <h3>{t('admin.c2c.history.title')}</h3>
      <ErrorAlert error={history.error} />
      <PagedTable<MerchantRequest>
        result={history.data}
        page={page}
        pageSize={HISTORY_PAGE_SIZE}
        onPage={(next) => setSearch(next === 1 ? {} : { page: String(next) })}
        total="admin.c2c.history.total"
        empty={{ text: 'admin.c2c.history.empty', testId: 'c2c-history-empty' }}
        columns={[
          'admin.c2c.field.orderNo',
          'admin.c2c.field.kind',
          'admin.c2c.field.user',
          'admin.c2c.field.usdt',
          'admin.c2c.field.fiat',
          'admin.c2c.field.status',
          'admin.c2c.field.endedAt',
        ]}
        row={(request) => (
          <tr data-testid={`c2c-history-row-${request.id}`} data-order-no={request.orderNo} data-status={request.status}>
            <td>
              <code className="order-no">{request.orderNo}</code>
            </td>
            <td>{t(`admin.c2c.kind.${request.kind}`)}</td>
            <td>{request.user}</td>
            <td>{request.usdt} USDT</td>
            <td>
              {request.fiat ? `${request.fiat} ${request.currency}` : '—'}
              {request.price && <div className="muted">{t('admin.c2c.priceValue', { price: request.price, currency: request.currency })}</div>}
            </td>
            <td>
              <StatusBadge request={request} />
              {request.failReason && <div className="muted">{t(`admin.c2c.failReason.${request.failReason}`)}</div>}
              {request.resolution && (
                <div className="muted chat-text" dir="auto">
                  {t('admin.c2c.history.resolution', { outcome: t(`admin.c2c.outcome.${request.resolution.outcome}`), note: request.resolution.note })}
                </div>
              )}
            </td>
            <td>{request.endedAtMs === null ? '' : formatEpochMs(request.endedAtMs)}</td>
          </tr>
        )}
      />
    </section>
  );
}
