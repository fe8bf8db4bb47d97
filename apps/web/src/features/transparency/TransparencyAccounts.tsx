import type { Transparency } from '@keel/contracts';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { ValueFact as TransparencyFact } from '../../shared/ui/Facts.tsx';
import { ShieldIcon } from '../../shared/ui/icons.tsx';
import { MonoText, Time } from '../wallet/WalletParts.tsx';
import { changeOn, type HouseAccount, houseId, houseText, sortHouses, totalChange, utcDay } from './house-figures.ts';
import { useLatestSnapshot } from './useTransparency.ts';

/** (a) The newest proof-of-liabilities snapshot in short — time, accounts, totals, root hash — and the way to the list and the check. */
export function ProofSummary() {
  const { t } = useI18n();
  const latest = useLatestSnapshot();
  const snapshot = latest.snapshot;
  const published = snapshot?.published ?? null;
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-proof">
        <h2 className="card-title" id="transparency-proof-title">
          <ShieldIcon />
          {t('web.transparency.proof.title')}
        </h2>
        <p>{t('web.transparency.proof.text')}</p>
        {latest.failed && <LoadFailedNotice onRetry={latest.reload} />}
        {!latest.loaded ? (
          !latest.failed && <p className="muted">{t('web.common.loading')}</p>
        ) : snapshot === null || published === null ? (
          <p className="muted" data-testid="transparency-proof-none">
            {t('web.transparency.proof.none')}
          </p>
        ) : (
          <>
            <h3 className="transparency-subtitle">{t('web.transparency.proof.latest', { id: snapshot.id })}</h3>
            <dl className="facts" data-testid="transparency-proof-latest" data-snapshot-id={snapshot.id}>
              <TransparencyFact label={t('web.transparency.proof.takenAt')} testId="transparency-proof-taken-at" value={published.takenAt}>
                <Time iso={published.takenAt} />
              </TransparencyFact>
              <TransparencyFact label={t('web.transparency.proof.accounts')} testId="transparency-proof-leaves" value={String(published.leafCount)}>
                <bdi dir="ltr" className="num">
                  {published.leafCount}
                </bdi>
              </TransparencyFact>
              {snapshot.totals.map((total) => (
                <TransparencyFact
                  key={total.asset}
                  label={t('web.transparency.proof.total', { asset: total.asset })}
                  testId={`transparency-proof-total-${total.asset}`}
                  value={total.amount}
                >
                  <Amount value={total.amount} unit={total.asset} />
                </TransparencyFact>
              ))}
              <TransparencyFact label={t('web.transparency.proof.root')} testId="transparency-proof-root" value={published.rootHash}>
                <MonoText value={published.rootHash} />
              </TransparencyFact>
            </dl>
          </>
        )}
        <Link to="/proof" className="btn btn-secondary btn-block" data-testid="transparency-proof-link">
          {t('web.transparency.proof.link')}
        </Link>
      </div>
    </Card>
  );
}

/** One house account: what it is, its ledger account and balance, today's and the 30 days' result, and each day's. */
function HouseCard({ house, today }: { house: HouseAccount; today: string }) {
  const { t } = useI18n();
  const text = houseText(house);
  const id = houseId(house);
  const todayChange = changeOn(house, today);
  return (
    <li>
      <Card className="transparency-card">
        <article aria-labelledby={`transparency-house-${id}-title`} data-testid={`transparency-house-${id}`} data-kind={house.kind} data-label={house.label} data-asset={house.asset}>
          <h3 className="card-title" id={`transparency-house-${id}-title`}>
            {t(text.name, text.values)} · <bdi dir="ltr">{house.asset}</bdi>
          </h3>
          <p className="muted">{t(text.what, text.values)}</p>
          <dl className="facts">
            <TransparencyFact label={t('web.transparency.house.account')} testId="transparency-house-account" value={house.accountId}>
              <bdi dir="ltr" className="num">
                #{house.accountId}
              </bdi>
            </TransparencyFact>
            <TransparencyFact label={t('web.transparency.house.balance')} testId="transparency-house-balance" value={house.balance}>
              <Amount value={house.balance} unit={house.asset} />
            </TransparencyFact>
            <TransparencyFact label={t('web.transparency.house.today')} testId="transparency-house-today" value={todayChange}>
              <Amount value={todayChange} unit={house.asset} signed />
            </TransparencyFact>
            <TransparencyFact label={t('web.transparency.house.last30')} testId="transparency-house-last30" value={totalChange(house)}>
              <Amount value={totalChange(house)} unit={house.asset} signed />
            </TransparencyFact>
          </dl>
          {house.days.length === 0 ? (
            <p className="field-hint" data-testid="transparency-house-no-days">
              {t('web.transparency.house.noDays')}
            </p>
          ) : (
            <table className="transparency-table" data-testid="transparency-house-days">
              <caption>{t('web.transparency.house.days')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('web.transparency.house.day')}</th>
                  <th scope="col">{t('web.transparency.house.change', { asset: house.asset })}</th>
                </tr>
              </thead>
              <tbody>
                {house.days.map((day) => (
                  <tr key={day.day} data-testid={`transparency-house-day-${day.day}`} data-change={day.change}>
                    <th scope="row">
                      <bdi dir="ltr" className="num">
                        {day.day}
                      </bdi>
                    </th>
                    <td>
                      <Amount value={day.change} signed />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </article>
      </Card>
    </li>
  );
}

/** (b) The platform's own accounts: each house account with its balance and its results by UTC day. */
export function HouseAccounts({ data }: { data: Transparency }) {
  const { t } = useI18n();
  const today = utcDay(data.generatedAtMs);
  const houses = sortHouses(data.houses);
  return (
    <section className="transparency-section" aria-labelledby="transparency-houses-title" data-testid="transparency-houses">
      <h2 className="transparency-section-title" id="transparency-houses-title">
        {t('web.transparency.houses.title')}
      </h2>
      <p className="muted">{t('web.transparency.houses.intro')}</p>
      {houses.length === 0 ? (
        <p className="muted" data-testid="transparency-houses-none">
          {t('web.transparency.houses.none')}
        </p>
      ) : (
        <ul className="transparency-stack">
          {houses.map((house) => (
            <HouseCard key={house.accountId} house={house} today={today} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** (c) The interest the earn treasury paid to subscriptions: since the start and over the last 30 days, per asset. */
export function EarnYieldPaid({ data }: { data: Transparency }) {
  const { t } = useI18n();
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-yield">
        <h2 className="card-title" id="transparency-yield-title">
          {t('web.transparency.yield.title')}
        </h2>
        <p className="muted">{t('web.transparency.yield.intro')}</p>
        {data.earnYieldPaid.length === 0 ? (
          <p className="muted" data-testid="transparency-yield-none">
            {t('web.transparency.yield.none')}
          </p>
        ) : (
          <table className="transparency-table">
            <caption className="visually-hidden">{t('web.transparency.yield.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('web.transparency.yield.asset')}</th>
                <th scope="col">{t('web.transparency.yield.total')}</th>
                <th scope="col">{t('web.transparency.yield.last30')}</th>
              </tr>
            </thead>
            <tbody>
              {data.earnYieldPaid.map((row) => (
                <tr key={row.asset} data-testid={`transparency-yield-${row.asset}`} data-total={row.total} data-last30={row.last30Days}>
                  <th scope="row">
                    <bdi dir="ltr">{row.asset}</bdi>
                  </th>
                  <td>
                    <Amount value={row.total} />
                  </td>
                  <td>
                    <Amount value={row.last30Days} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Card>
  );
}
