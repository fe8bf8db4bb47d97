import { userDisplayName } from '@keel/contracts';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import {
  ChevronIcon,
  DepositIcon,
  ExchangeIcon,
  LogoMark,
  ShieldIcon,
  TradeIcon,
  TransferIcon,
  WithdrawIcon,
} from '../../shared/ui/icons.tsx';
import { useAccounts } from '../assets/useAccounts.ts';
import { valueBalances } from '../assets/valuation.ts';
import { HomeContent } from '../content/HomeContent.tsx';
import { ChangeTag } from '../market/ChangeTag.tsx';
import { marketMovers, usdtPriceMap } from '../market/tickers.ts';
import { useTickers } from '../market/useTickers.ts';
import { tradePath } from '../options/options-logic.ts';
import { useMe } from '../profile/useMe.ts';
import { areaGroups, featureAreas } from './feature-areas.ts';
import './home.css';

/** How many markets the home page lists as movers. */
const MOVERS_SHOWN = 3;

function QuickAction({ to, icon, label, testId }: { to: string; icon: ReactNode; label: string; testId: string }) {
  return (
    <Link to={to} className="asset-action" data-testid={testId}>
      <span className="asset-action-icon">{icon}</span>
      <span>{label}</span>
    </Link>
  );
}

/** The user's total in USDT at the live prices (the assets tab's valuation), and the five quick actions. */
function TotalCard() {
  const { t } = useI18n();
  const { accounts, failed, reload } = useAccounts();
  const market = useTickers();
  const pricesKnown = market.tickers !== null || market.failed;
  const totalUsdt = useMemo(
    () => (accounts && pricesKnown ? valueBalances(accounts, usdtPriceMap(market.tickers ?? [])).totalUsdt : undefined),
    [accounts, pricesKnown, market.tickers],
  );
  return (
    <Card className="card-accent home-total">
      {failed && <LoadFailedNotice onRetry={reload} />}
      <Link to="/assets" className="home-total-link" data-testid="home-total">
        <span className="assets-total-label">{t('web.assets.total')}</span>
        <span className="home-total-value">
          {totalUsdt === undefined ? (
            <span className="muted">{t('web.common.loading')}</span>
          ) : totalUsdt === null ? (
            <span className="muted" data-testid="home-total-unavailable">
              {t('web.assets.totalUnavailable')}
            </span>
          ) : (
            <Amount value={totalUsdt} unit="USDT" max={2} testId="home-total-usdt" />
          )}
        </span>
        <ChevronIcon />
      </Link>
      <nav className="asset-actions" aria-label={t('web.home.actions')} data-testid="home-actions">
        <QuickAction to="/assets/recharge" icon={<DepositIcon />} label={t('web.wallet.deposit')} testId="home-action-deposit" />
        <QuickAction to="/assets/withdraw" icon={<WithdrawIcon />} label={t('web.wallet.withdraw')} testId="home-action-withdraw" />
        <QuickAction to="/assets/transfer" icon={<TransferIcon />} label={t('web.assets.transfer')} testId="home-action-transfer" />
        <QuickAction to="/assets/flashExchange" icon={<ExchangeIcon />} label={t('web.assets.exchange')} testId="home-action-swap" />
        <QuickAction to="/trade" icon={<TradeIcon />} label={t('web.tab.trade')} testId="home-action-trade" />
      </nav>
    </Card>
  );
}

/** The markets that moved most in 24 h, live (the tickers query follows the pushed ticks); each opens its trade screen. */
function MoversCard() {
  const { t } = useI18n();
  const { tickers, failed, reload } = useTickers();
  const movers = tickers ? marketMovers(tickers, MOVERS_SHOWN) : null;
  return (
    <Card>
      <div className="home-card-head">
        <h2 className="card-title">{t('web.home.movers')}</h2>
        <Link to="/news" className="home-more" data-testid="home-all-markets">
          {t('web.home.allMarkets')}
        </Link>
      </div>
      {failed && <LoadFailedNotice onRetry={reload} />}
      {movers === null ? (
        !failed && (
          // As tall as the list will be, so the cards below do not move when it arrives.
          <p className="muted home-movers-loading" aria-busy="true" data-testid="home-movers-loading">
            {t('web.common.loading')}
          </p>
        )
      ) : movers.length === 0 ? (
        <p className="muted">{t('web.market.empty')}</p>
      ) : (
        <ul className="home-movers" data-testid="home-movers">
          {movers.map((ticker) => (
            <li key={ticker.symbol}>
              <Link to={tradePath(ticker.symbol)} className="home-mover" data-testid={`mover-${ticker.symbol.replace('/', '-')}`}>
                <bdi dir="ltr" className="home-mover-symbol">
                  <strong>{ticker.base}</strong>
                  <span className="muted">/{ticker.quote}</span>
                </bdi>
                <Amount value={ticker.last.price} max={8} testId="mover-price" />
                <ChangeTag change={ticker.change24hPct} testId="mover-change" />
              </Link>
            </li>
          ))}
        </ul>
      )}
      <p className="field-hint">{t('web.home.moversNote')}</p>
    </Card>
  );
}

/** Every feature area that exists (`feature-areas.ts`), by group, each with what it is for. */
function AreasCard() {
  const { t } = useI18n();
  return (
    <Card>
      <h2 className="card-title">{t('web.home.areas')}</h2>
      <div className="home-areas" data-testid="home-areas">
        {areaGroups.map(({ group, title }) => (
          <nav key={group} className="list" aria-label={t(title)}>
            <h3 className="home-area-group">{t(title)}</h3>
            {featureAreas
              .filter((area) => area.group === group)
              .map((area) => (
                <Link key={area.key} to={area.to} className="list-link" data-testid={`area-${area.key}`}>
                  <span className="list-link-label">
                    <span className="home-area-name">{t(area.label)}</span>
                    <span className="home-area-about muted">{t(area.about)}</span>
                  </span>
                  <ChevronIcon />
                </Link>
              ))}
          </nav>
        ))}
      </div>
    </Card>
  );
}

/**
 * /index: a greeting, the banners, the user's total in USDT with the quick actions, the market
 * movers, the latest announcements, a link to every feature area that exists, and how Keel handles
 * money.
 */
export function HomeOverview() {
  const { t } = useI18n();
  const { user, failed, reload } = useMe();
  return (
    <div className="page">
      <header className="home-hero">
        <LogoMark size={40} />
        <div>
          <p className="home-hero-brand">{t('web.app.name')}</p>
          <h1 data-testid="greeting">{user ? t('web.home.greeting', { name: userDisplayName(user) }) : t('web.home.welcome')}</h1>
        </div>
      </header>
      {failed && <LoadFailedNotice onRetry={reload} />}
      <HomeContent part="banners" />
      <TotalCard />
      <MoversCard />
      <HomeContent part="announcements" />
      <AreasCard />
      <Card className="card-accent">
        <h2 className="card-title">
          <ShieldIcon />
          {t('web.home.principlesTitle')}
        </h2>
        <ul className="principle-list">
          <li>{t('web.home.principleLedger')}</li>
          <li>{t('web.home.principleMarket')}</li>
          <li>{t('web.home.principleFees')}</li>
        </ul>
      </Card>
    </div>
  );
}
