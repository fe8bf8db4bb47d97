import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { DepositIcon, ExchangeIcon, RecordsIcon, TransferIcon, WithdrawIcon } from '../../shared/ui/icons.tsx';
import { usdtPrices } from '../market/tickers.ts';
import { useTickers } from '../market/useTickers.ts';
import { accountKindKeys, accountPurposeKeys } from './accounts.ts';
import { useAccounts } from './useAccounts.ts';
import { type AccountGroup, sectionAccounts, valueBalances } from './valuation.ts';

function Action({ to, icon, label, testId }: { to: string; icon: ReactNode; label: string; testId: string }) {
  return (
    <Link to={to} className="asset-action" data-testid={testId}>
      <span className="asset-action-icon">{icon}</span>
      <span>{label}</span>
    </Link>
  );
}

/** A value in USDT, or a plain "no price" when the asset has no recorded price. */
function UsdtValue({ value, testId }: { value: string | null; testId?: string }) {
  const { t } = useI18n();
  if (value === null) {
    return (
      <span className="muted" data-testid={testId}>
        {t('web.assets.noPrice')}
      </span>
    );
  }
  return (
    <span className="approx">
      ≈ <Amount value={value} unit="USDT" max={2} testId={testId} />
    </span>
  );
}

function AccountCard({ group, hideZero }: { group: AccountGroup; hideZero: boolean }) {
  const { t } = useI18n();
  const balances = hideZero ? group.balances.filter((row) => !/^0(\.0+)?$/.test(row.total)) : group.balances;
  return (
    <Card className="account-card">
      <h2 className="card-title account-card-title" data-testid={`account-${group.kind}`}>
        <span>{t(accountKindKeys[group.kind])}</span>
        <UsdtValue value={group.valueUsdt} testId={`account-${group.kind}-value`} />
      </h2>
      <p className="account-purpose muted" data-testid={`account-${group.kind}-purpose`}>
        {t(accountPurposeKeys[group.kind])}
      </p>
      {group.kind === 'defi' && (
        <Link to="/Lockup" className="btn btn-ghost btn-small" data-testid="account-defi-earn">
          {t('web.earn.nav')}
        </Link>
      )}
      {balances.length === 0 ? (
        <p className="muted">{t('web.assets.noBalance')}</p>
      ) : (
        <ul className="balance-list">
          {balances.map((row) => (
            <li key={row.asset} className="balance-row" data-testid={`balance-${row.kind}-${row.asset}`}>
              <div className="balance-head">
                <span className="asset-code">{row.asset}</span>
                <UsdtValue value={row.valueUsdt} testId={`balance-${row.kind}-${row.asset}-value`} />
              </div>
              <dl className="balance-parts">
                <div>
                  <dt>{t('web.assets.usable')}</dt>
                  <dd>
                    <Amount value={row.available} testId={`balance-${row.kind}-${row.asset}-available`} />
                  </dd>
                </div>
                <div>
                  <dt>{t('web.assets.frozen')}</dt>
                  <dd>
                    <Amount value={row.frozen} testId={`balance-${row.kind}-${row.asset}-frozen`} />
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * The assets tab: the total in USDT, the actions (deposit, withdraw, transfer, exchange, records)
 * with links to the deposit and withdrawal records, then the accounts, each with what it is for and
 * its usable, frozen and converted balances: those holding something first (and the coin account),
 * the empty ones under a fold (`sectionAccounts`). Values follow the live prices.
 */
export function AssetsOverview() {
  const { t } = useI18n();
  const { accounts, failed, reload } = useAccounts();
  const market = useTickers();
  const [hideZero, setHideZero] = useState(false);

  const prices = useMemo(() => usdtPrices(market.tickers ?? []), [market.tickers]);
  const valuation = useMemo(() => {
    if (!accounts) return null;
    const plain = new Map([...prices].map(([asset, entry]) => [asset, entry.price]));
    return valueBalances(accounts, plain);
  }, [accounts, prices]);
  const usedTicks = [...prices.values()].flatMap((entry) => (entry.tick ? [entry.tick] : []));
  const sections = valuation && sectionAccounts(valuation.groups);

  return (
    <div className="page">
      <h1 className="page-title">{t('web.tab.assets')}</h1>
      {failed && <LoadFailedNotice onRetry={reload} />}

      <Card className="card-accent assets-total">
        <p className="assets-total-label">{t('web.assets.total')}</p>
        <p className="assets-total-value">
          {valuation === null ? (
            <span className="muted">{t('web.common.loading')}</span>
          ) : valuation.totalUsdt === null ? (
            <span className="muted" data-testid="total-usdt-unavailable">
              {t('web.assets.totalUnavailable')}
            </span>
          ) : (
            <Amount value={valuation.totalUsdt} unit="USDT" max={2} testId="total-usdt" />
          )}
        </p>
        {valuation && valuation.unpriced.length > 0 && (
          <p className="field-hint" data-testid="unpriced">
            {t('web.assets.unpriced', { assets: valuation.unpriced.join(', ') })}
          </p>
        )}
        {market.failed && <p className="field-hint">{t('web.assets.pricesFailed')}</p>}
        <p className="field-hint">{t('web.assets.totalNote')}</p>
        {usedTicks.length > 0 && (
          <details className="prices-used">
            <summary>{t('web.assets.pricesUsed')}</summary>
            <ul>
              {usedTicks.map((tick) => (
                <li key={tick.symbol} data-testid={`price-used-${tick.symbol}`}>
                  <bdi dir="ltr">{tick.symbol}</bdi> <Amount value={tick.price} max={8} />{' '}
                  <span className="muted">
                    {t('web.assets.priceRecorded', { time: formatDateTime(new Date(tick.atMs).toISOString()), source: tick.source })}
                  </span>
                </li>
              ))}
            </ul>
          </details>
        )}
        <nav className="asset-actions" aria-label={t('web.assets.actions')}>
          <Action to="/assets/recharge" icon={<DepositIcon />} label={t('web.wallet.deposit')} testId="action-deposit" />
          <Action to="/assets/withdraw" icon={<WithdrawIcon />} label={t('web.wallet.withdraw')} testId="action-withdraw" />
          <Action to="/assets/transfer" icon={<TransferIcon />} label={t('web.assets.transfer')} testId="action-transfer" />
          <Action to="/assets/flashExchange" icon={<ExchangeIcon />} label={t('web.assets.exchange')} testId="action-exchange" />
          <Action to="/assets/records" icon={<RecordsIcon />} label={t('web.assets.records')} testId="action-records" />
        </nav>
        <nav className="asset-links" aria-label={t('web.wallet.recordsNav')}>
          <Link to="/assets/rechargeLog" data-testid="link-recharge-log">
            {t('web.deposit.logTitle')}
          </Link>
          <Link to="/assets/withdrawLog" data-testid="link-withdraw-log">
            {t('web.withdraw.logTitle')}
          </Link>
          <Link to="/assets/WithdrawList" data-testid="link-withdraw-open">
            {t('web.withdraw.openTitle')}
          </Link>
        </nav>
      </Card>

      {accounts && (
        <label className="checkbox hide-zero">
          <input type="checkbox" checked={hideZero} onChange={(event) => setHideZero(event.target.checked)} data-testid="hide-zero" />
          <span>{t('web.assets.hideZero')}</span>
        </label>
      )}

      {sections && (
        <div className="accounts-shown" data-testid="accounts-shown">
          {sections.shown.map((group) => (
            <AccountCard key={group.kind} group={group} hideZero={hideZero} />
          ))}
        </div>
      )}
      {sections && sections.folded.length > 0 && (
        <details className="accounts-folded" data-testid="accounts-folded">
          <summary data-testid="accounts-folded-toggle">
            {t('web.assets.foldedAccounts')} <span className="badge">{sections.folded.length}</span>
          </summary>
          {sections.folded.map((group) => (
            <AccountCard key={group.kind} group={group} hideZero={hideZero} />
          ))}
        </details>
      )}
    </div>
  );
}
