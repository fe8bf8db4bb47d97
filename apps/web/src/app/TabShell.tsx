import { unreadAddress } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useContractQuery } from '../shared/api/queries.ts';
import { useI18n } from '../shared/i18n/I18nProvider.tsx';
import { AssetsIcon, HomeIcon, MarketIcon, MineIcon, TradeIcon } from '../shared/ui/icons.tsx';
import { isTradeIdPath, isTradeProductPath } from './trade-path.ts';

interface Tab {
  to: string;
  label: MessageKey;
  icon: () => ReactNode;
  /** Paths besides `to` that belong to the tab, e.g. /trade_12 for the trade tab. */
  alsoActive?: (pathname: string) => boolean;
}


const tabs: Tab[] = [
  { to: '/index', label: 'web.tab.home', icon: HomeIcon },
  { to: '/trade', label: 'web.tab.trade', icon: TradeIcon, alsoActive: (pathname) => isTradeIdPath(pathname) || isTradeProductPath(pathname) },
  { to: '/news', label: 'web.tab.market', icon: MarketIcon },
  { to: '/assets', label: 'web.tab.assets', icon: AssetsIcon },
  { to: '/my', label: 'web.tab.mine', icon: MineIcon },
];

/**
 * The tab bar's unread flag (spec section 7): GET /home/user/unread as a query, asked when the
 * shell loads and again on every tab change; a `message` push event and a reconnect of the push
 * connection invalidate it (shared/realtime/cache-sync.ts). A failed check keeps the last known flag.
 */
function useUnreadFlag(pathname: string): boolean {
  // Never fresh: the shell asks every time it loads, even within seconds of the last answer.
  const query = useContractQuery(unreadAddress, undefined, { staleTime: 0 });
  const refetch = query.refetch;
  const asked = useRef(pathname);
  useEffect(() => {
    // The load asked already; each later path asks afresh.
    if (asked.current === pathname) return;
    asked.current = pathname;
    void refetch();
  }, [pathname, refetch]);
  return query.data === true;
}

/** The five-tab shell, with the unread flag on the "Mine" tab; the flag opens /message. */
export function TabShell({ children }: { children?: ReactNode }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const unread = useUnreadFlag(pathname);

  return (
    <div className="tab-shell">
      <main className="tab-content">{children ?? <Outlet />}</main>
      <nav className="tab-bar" aria-label={t('web.tab.navLabel')}>
        {tabs.map((tab) => {
          const active = pathname === tab.to || (tab.alsoActive?.(pathname) ?? false);
          return (
            <div key={tab.to} className="tab-item">
              <Link
                to={tab.to}
                className={active ? 'tab-link active' : 'tab-link'}
                aria-current={active ? 'page' : undefined}
                data-testid={`tab-${tab.to.slice(1)}`}
              >
                <span className="tab-icon">{tab.icon()}</span>
                <span className="tab-label">{t(tab.label)}</span>
              </Link>
              {/* The flag sits on the "Mine" tab and opens the message list (a link of its own: links do not nest). */}
              {tab.to === '/my' && unread && (
                <Link to="/message" className="unread-flag" data-testid="unread-flag" aria-label={t('web.tab.unread')} title={t('web.tab.unread')}>
                  <span className="unread-dot" aria-hidden="true" />
                </Link>
              )}
            </div>
          );
        })}
      </nav>
    </div>
  );
}
