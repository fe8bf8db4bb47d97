import type { MessageKey } from '@keel/locales';
import { type ComponentType, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { mobilePathFor, saveSiteChoice } from '../../app/desktop-paths.ts';
import { useWideScreen } from '../../app/desktop-site.ts';
import { useLoggedIn } from '../../shared/api/session.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LanguageSwitcher } from '../../shared/i18n/LanguageSwitcher.tsx';
import { InDesktopFrame } from '../../shared/ui/components.tsx';
import './desktop.css';

const publicPages = () => import('./DesktopPublicPages.tsx');
const accountPages = () => import('./DesktopAccountPages.tsx');
const tradePages = () => import('./DesktopTradePages.tsx');

/** Every desktop page and the chunk it is in (router.tsx names them; this chunk names their chunks). */
const desktopPages = {
  DesktopLoginPage: publicPages,
  DesktopRegisterPage: publicPages,
  DesktopForgetPage: publicPages,
  DesktopAgreementPage: publicPages,
  DesktopTermsPage: publicPages,
  DesktopHelpCentrePage: publicPages,
  DesktopHomePage: accountPages,
  DesktopAssetsPage: accountPages,
  DesktopMyPage: accountPages,
  DesktopSettingPage: accountPages,
  DesktopContactListPage: accountPages,
  DesktopLeveragedPage: tradePages,
  DesktopFuturesPage: tradePages,
  DesktopLockUpPage: tradePages,
} as const;

export type DesktopPageName = keyof typeof desktopPages;

/** A desktop page's component, from its chunk. */
export async function desktopPage(name: DesktopPageName): Promise<ComponentType> {
  const module = (await desktopPages[name]()) as unknown as Record<DesktopPageName, ComponentType>;
  return module[name];
}

export interface MenuItem {
  to: string;
  label: MessageKey;
  testId: string;
  values?: Record<string, string>;
}

/** Whether a menu link names the page shown (its path, the query ignored). */
export const isCurrent = (to: string, pathname: string) => to.split('?')[0] === pathname;

/** The trade menu: the contract screen, the desktop leverage screens, lock-up mining. */
const tradeMenu: MenuItem[] = [
  { to: '/trade', label: 'web.desktop.trade.contracts', testId: 'desktop-menu-contracts' },
  { to: '/web/trade/LeveragedTrading', label: 'web.desktop.trade.leveraged', testId: 'desktop-menu-leveraged' },
  { to: '/web/trade/FuturesTrading', label: 'web.desktop.trade.futures', testId: 'desktop-menu-futures' },
  { to: '/web/trade/LockUpMining', label: 'web.desktop.trade.lockup', testId: 'desktop-menu-lockup' },
];

/** The fiat menu: the P2P shop and C2C through merchants. */
const fiatMenu: MenuItem[] = [
  { to: '/trade/shopping', label: 'web.desktop.fiat.p2p', testId: 'desktop-menu-p2p' },
  { to: '/assets/recharge?via=c2c', label: 'web.desktop.fiat.c2c', testId: 'desktop-menu-c2c' },
];

/** The account menu of a logged-in user. */
export const accountMenu: MenuItem[] = [
  { to: '/web/my/index', label: 'web.desktop.account.overview', testId: 'desktop-menu-my' },
  { to: '/web/my/setting', label: 'web.desktop.account.settings', testId: 'desktop-menu-setting' },
  { to: '/web/my/Contact_list', label: 'web.desktop.account.contacts', testId: 'desktop-menu-contacts' },
];

/**
 * A header menu group: a button that opens a list of links (aria-expanded). Escape closes it and
 * gives the button back its focus; so does leaving it with the keyboard or the pointer, or a navigation.
 */
function MenuGroup({ label, items, testId }: { label: string; items: MenuItem[]; testId: string }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  // A navigation closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is what closes it
  useEffect(() => setOpen(false), [pathname]);
  const current = items.some((item) => isCurrent(item.to, pathname));
  return (
    // Keys and focus bubble up from the button and the links: the group only listens (Escape, leaving it).
    // biome-ignore lint/a11y/noStaticElementInteractions: the group is no control itself; its button and links are
    <div
      className="desktop-menu-group"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={current ? 'desktop-menu-link current' : 'desktop-menu-link'}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
        data-testid={testId}
      >
        {label}
        <span className="desktop-caret" aria-hidden="true" />
      </button>
      <ul id={listId} className="desktop-menu-list" hidden={!open}>
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="desktop-menu-item" aria-current={isCurrent(item.to, pathname) ? 'page' : undefined} data-testid={item.testId}>
              {t(item.label, item.values)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TopLink({ to, label, testId }: { to: string; label: string; testId: string }) {
  const { pathname } = useLocation();
  const current = isCurrent(to, pathname);
  return (
    <Link to={to} className={current ? 'desktop-menu-link current' : 'desktop-menu-link'} aria-current={current ? 'page' : undefined} data-testid={testId}>
      {label}
    </Link>
  );
}

/** The header: the brand, the menu (markets, trade, fiat, assets, help), the language and the account. */
function DesktopHeader() {
  const { t } = useI18n();
  const loggedIn = useLoggedIn();
  return (
    <header className="desktop-header">
      <Link to="/web/index/index" className="desktop-brand" data-testid="desktop-brand">
        {t('web.app.name')}
      </Link>
      <nav className="desktop-nav" aria-label={t('web.desktop.nav.label')} data-testid="desktop-header-menu">
        <ul className="desktop-menu">
          <li>
            <TopLink to="/news" label={t('web.desktop.menu.markets')} testId="desktop-menu-markets" />
          </li>
          <li>
            <MenuGroup label={t('web.desktop.menu.trade')} items={tradeMenu} testId="desktop-menu-trade" />
          </li>
          <li>
            <MenuGroup label={t('web.desktop.menu.fiat')} items={fiatMenu} testId="desktop-menu-fiat" />
          </li>
          <li>
            <TopLink to="/web/assets/index" label={t('web.desktop.menu.assets')} testId="desktop-menu-assets" />
          </li>
          <li>
            <TopLink to="/web/helpCenter/index" label={t('web.desktop.menu.help')} testId="desktop-menu-help" />
          </li>
        </ul>
      </nav>
      <div className="desktop-header-end">
        <LanguageSwitcher compact />
        {loggedIn ? (
          <MenuGroup label={t('web.desktop.menu.account')} items={accountMenu} testId="desktop-menu-account" />
        ) : (
          <>
            <TopLink to="/web/index/login" label={t('web.desktop.menu.login')} testId="desktop-menu-login" />
            <Link to="/web/index/Register" className="btn btn-primary btn-small" data-testid="desktop-menu-register">
              {t('web.desktop.menu.register')}
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

/**
 * A page without a desktop page, opened on the desktop site (ADR 0048): the desktop header across
 * the screen above the page's phone column, so the menus stay where they were. The class on the
 * root widens the frame for the header only (desktop.css); leaving the page removes it.
 */
export function DesktopHeaderOverPhonePage() {
  useEffect(() => {
    document.documentElement.classList.add(FRAMED_PHONE_PAGE);
    return () => document.documentElement.classList.remove(FRAMED_PHONE_PAGE);
  }, []);
  return <DesktopHeader />;
}

const FRAMED_PHONE_PAGE = 'phone-page-framed';

/** The footer: the way back to the mobile site (remembered, ADR 0048) and the legal documents. */
function DesktopFooter() {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  return (
    <footer className="desktop-footer">
      <Link to={`${mobilePathFor(pathname)}${search}`} onClick={() => saveSiteChoice('mobile')} data-testid="desktop-mobile-site">
        {t('web.desktop.footer.mobile')}
      </Link>
      <Link to="/web/index/Agreement">{t('web.legal.agreementTitle')}</Link>
      <Link to="/web/index/Terms">{t('web.legal.termsTitle')}</Link>
    </footer>
  );
}

/**
 * The desktop frame (issue 21): header menu, the page as the one main landmark, footer. On a narrow
 * screen it shows nothing: SiteSwitch (RootLayout) sends the screen to the mobile page (ADR 0048).
 */
export function DesktopLayout({ children }: { children?: ReactNode }) {
  if (!useWideScreen()) return null;
  return (
    <div className="desktop-shell" data-testid="desktop-shell">
      <DesktopHeader />
      <main className="desktop-main">
        <InDesktopFrame.Provider value={true}>{children ?? <Outlet />}</InDesktopFrame.Provider>
      </main>
      <DesktopFooter />
    </div>
  );
}

/** A page with a side menu (the assets centre, the account): the menu at the inline start, the content beside it. */
export function SideMenuPage({ label, items, testId, children }: { label: string; items: MenuItem[]; testId: string; children: ReactNode }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  return (
    <div className="desktop-side-page">
      <nav className="desktop-side-menu" aria-label={label} data-testid={testId}>
        <h2 className="desktop-side-title">{label}</h2>
        <ul>
          {items.map((item) => (
            <li key={`${item.to}:${item.testId}`}>
              <Link to={item.to} aria-current={isCurrent(item.to, pathname) ? 'page' : undefined} data-testid={item.testId}>
                {t(item.label, item.values)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="desktop-side-content">{children}</div>
    </div>
  );
}
