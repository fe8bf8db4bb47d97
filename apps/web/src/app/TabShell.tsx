import { unreadContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { api } from '../shared/api/client.ts';
import { useI18n } from '../shared/i18n/I18nProvider.tsx';
import { useUserEvents } from '../shared/realtime/realtime.ts';
import { AssetsIcon, HomeIcon, MarketIcon, MineIcon, TradeIcon } from '../shared/ui/icons.tsx';

interface Tab {
  to: string;
  label: MessageKey;
  icon: () => ReactNode;
  /** Paths besides `to` that belong to the tab, e.g. /trade_12 for the trade tab. */
  alsoActive?: (pathname: string) => boolean;
}

export const isTradeIdPath = (pathname: string) => /^\/trade_[^/]+$/.test(pathname);

const tabs: Tab[] = [
  { to: '/index', label: 'web.tab.home', icon: HomeIcon },
  { to: '/trade', label: 'web.tab.trade', icon: TradeIcon, alsoActive: isTradeIdPath },
  { to: '/news', label: 'web.tab.market', icon: MarketIcon },
  { to: '/assets', label: 'web.tab.assets', icon: AssetsIcon },
  { to: '/my', label: 'web.tab.mine', icon: MineIcon },
];

/**
 * The five-tab shell. It asks GET /home/user/unread when it loads and on every tab change (spec
 * section 7), at each `message` push event, and after the push connection comes back from a drop
 * (events sent meanwhile are not replayed); it flags the "Mine" tab while there are unread
 * messages; the flag opens /message.
 */
export function TabShell({ children }: { children?: ReactNode }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const [unread, setUnread] = useState(false);
  const [pushed, setPushed] = useState(0);

  // A new system message lights the flag as it arrives. After the first `authed` ('start') the
  // load's own check stands (the next tab change asks again); after a drop ('gap') it is asked again.
  const askAgain = () => setPushed((value) => value + 1);
  useUserEvents((event) => event.kind === 'message', askAgain, (reason) => {
    if (reason === 'gap') askAgain();
  });

  useEffect(() => {
    let current = true;
    // Runs again for every new path: each tab change asks the server afresh (and for each push).
    void pathname;
    void pushed;
    api(unreadContract)
      .then((value) => {
        if (current) setUnread(value);
      })
      // A failed check keeps the last known flag; the client's session rules handle an ended session.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [pathname, pushed]);

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
