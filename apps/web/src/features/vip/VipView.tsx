import { ApiError } from '@keel/contracts';
import { useState } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { discountPercent, progressPercent, type MyVip, useApplyForVip, useMyVip } from './useVip.ts';
import './vip.css';

/** The VIP page (issue 20, ADR 0046): the published table, my level, my progress to the next, applying. */
export function VipView() {
  const { t } = useI18n();
  const { data, failed, reload } = useMyVip();
  if (failed) return <LoadFailedNotice onRetry={reload} />;
  if (!data) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <div className="vip-view">
      <MyLevel data={data} />
      <LevelTable data={data} />
      <Apply data={data} />
      <History data={data} />
      <Card>
        <p className="muted vip-rule" data-testid="vip-rule">{t('web.vip.rule')}</p>
      </Card>
    </div>
  );
}

function MyLevel({ data }: { data: MyVip }) {
  const { t } = useI18n();
  const mine = data.levels.find((each) => each.level === data.level)!;
  return (
    <Card className="vip-mine">
      <p className="vip-level-badge" data-testid="vip-my-level">
        {t('web.vip.levelName', { level: data.level })}
      </p>
      <p className="muted">{data.source === 'application' ? t('web.vip.sourceApplication') : t('web.vip.sourceRule')}</p>
      <dl className="facts">
        <div>
          <dt>{t('web.vip.feeDiscount')}</dt>
          <dd data-testid="vip-my-discount">{discountPercent(mine.feeDiscountBps)}</dd>
        </div>
        <div>
          <dt>{t('web.vip.extraWithdrawals')}</dt>
          <dd>+{mine.extraDailyWithdrawals}</dd>
        </div>
        <div>
          <dt>{t('web.vip.volume30d')}</dt>
          <dd className="ltr-number" data-testid="vip-volume">{data.volume30dUsdt} USDT</dd>
        </div>
        <div>
          <dt>{t('web.vip.balance')}</dt>
          <dd className="ltr-number" data-testid="vip-balance">{data.balanceUsdt} USDT</dd>
        </div>
      </dl>
      {data.progress.next === null ? (
        <p data-testid="vip-top">{t('web.vip.topLevel')}</p>
      ) : (
        <div className="vip-progress" data-testid="vip-progress">
          <p>{t('web.vip.progressTo', { level: data.progress.next })}</p>
          {data.progress.volume ? <Bar label={t('web.vip.volume30d')} have={data.progress.volume.have} need={data.progress.volume.need} /> : null}
          {data.progress.balance ? <Bar label={t('web.vip.balance')} have={data.progress.balance.have} need={data.progress.balance.need} /> : null}
          <p className="muted">{t('web.vip.eitherMeasure')}</p>
        </div>
      )}
    </Card>
  );
}

function Bar({ label, have, need }: { label: string; have: string; need: string }) {
  const percent = progressPercent(have, need);
  return (
    <div className="vip-bar">
      <span>{label}</span>
      <div className="vip-bar-track" role="progressbar" aria-label={label} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}>
        <div className="vip-bar-fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <span className="ltr-number muted">
        {have} / {need} USDT
      </span>
    </div>
  );
}

function LevelTable({ data }: { data: MyVip }) {
  const { t } = useI18n();
  return (
    <Card>
      <h2 className="card-title">{t('web.vip.tableTitle')}</h2>
      <div className="vip-table-wrap">
        <table className="vip-table" data-testid="vip-table">
          <thead>
            <tr>
              <th scope="col">{t('web.vip.level')}</th>
              <th scope="col">{t('web.vip.feeDiscount')}</th>
              <th scope="col">{t('web.vip.extraWithdrawals')}</th>
              <th scope="col">{t('web.vip.reachedBy')}</th>
            </tr>
          </thead>
          <tbody>
            {data.levels.map((each) => (
              <tr key={each.level} className={each.level === data.level ? 'vip-row-mine' : undefined} data-testid={`vip-row-${each.level}`}>
                <th scope="row">{t('web.vip.levelName', { level: each.level })}</th>
                <td>{discountPercent(each.feeDiscountBps)}</td>
                <td>+{each.extraDailyWithdrawals}</td>
                <td>
                  {each.level === 0 ? (
                    t('web.vip.everyone')
                  ) : (
                    <>
                      {/* The operator's table may count one measure only, or none (a level granted on application only). */}
                      {each.minVolume30dUsdt !== null && each.minBalanceUsdt !== null
                        ? t('web.vip.threshold', { volume: each.minVolume30dUsdt, balance: each.minBalanceUsdt })
                        : each.minVolume30dUsdt !== null
                          ? t('web.vip.thresholdVolume', { volume: each.minVolume30dUsdt })
                          : each.minBalanceUsdt !== null
                            ? t('web.vip.thresholdBalance', { balance: each.minBalanceUsdt })
                            : t('web.vip.applicationOnly')}
                      {each.byApplication ? (
                        <span className="vip-by-application">
                          {t('web.vip.applicationThreshold', { volume: each.byApplication.minVolume30dUsdt, balance: each.byApplication.minBalanceUsdt })}
                        </span>
                      ) : null}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">{t('web.vip.discountedFees')}</p>
    </Card>
  );
}

function Apply({ data }: { data: MyVip }) {
  const { t, tServer } = useI18n();
  const apply = useApplyForVip();
  const [problem, setProblem] = useState<string | null>(null);
  const open = data.applications.find((each) => each.status === 'in_review');
  const candidates = data.levels.filter((each) => each.byApplication && each.level > data.level);
  const [level, setLevel] = useState<number | null>(null);
  const chosen = level ?? candidates[0]?.level ?? null;
  return (
    <Card>
      <h2 className="card-title">{t('web.vip.applyTitle')}</h2>
      {data.applications.length > 0 ? (
        <ul className="vip-applications" data-testid="vip-applications">
          {data.applications.map((each) => (
            <li key={each.id}>
              {t('web.vip.levelName', { level: each.level })} · {t(`web.vip.status.${each.status}`)}
              {each.rejectReason ? <span className="muted"> · {each.rejectReason}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {!data.advancedVerified ? (
        <Notice testId="vip-needs-advanced">{t('web.vip.needsAdvanced')}</Notice>
      ) : open ? (
        <p className="muted">{t('web.vip.applicationOpen')}</p>
      ) : candidates.length === 0 || chosen === null ? (
        <p className="muted">{t('web.vip.nothingToApply')}</p>
      ) : (
        <div className="vip-apply">
          <label>
            {t('web.vip.level')}{' '}
            <select value={chosen} onChange={(event) => setLevel(Number(event.target.value))} data-testid="vip-apply-level">
              {candidates.map((each) => (
                <option key={each.level} value={each.level}>
                  {t('web.vip.levelName', { level: each.level })}
                </option>
              ))}
            </select>
          </label>
          <Button
            busy={apply.isPending}
            data-testid="vip-apply"
            onClick={async () => {
              setProblem(null);
              try {
                await apply.mutateAsync({ body: { level: chosen } });
              } catch (error) {
                setProblem(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
              }
            }}
          >
            {t('web.vip.apply')}
          </Button>
        </div>
      )}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
    </Card>
  );
}

/** The daily computations of the last 30 days: the level given, and what the rule read that day. */
function History({ data }: { data: MyVip }) {
  const { t } = useI18n();
  return (
    <Card>
      <h2 className="card-title">{t('web.vip.historyTitle')}</h2>
      {data.history.length === 0 ? (
        <p className="muted" data-testid="vip-history-empty">
          {t('web.vip.historyEmpty')}
        </p>
      ) : (
        <div className="vip-table-wrap">
          <table className="vip-table" data-testid="vip-history">
            <thead>
              <tr>
                <th scope="col">{t('web.vip.historyDay')}</th>
                <th scope="col">{t('web.vip.level')}</th>
                <th scope="col">{t('web.vip.volume30d')}</th>
                <th scope="col">{t('web.vip.balance')}</th>
              </tr>
            </thead>
            <tbody>
              {data.history.map((run) => (
                <tr key={run.day} data-testid={`vip-history-${run.day}`}>
                  <th scope="row">
                    <bdi dir="ltr">{run.day}</bdi>
                  </th>
                  <td>
                    {t('web.vip.levelName', { level: run.level })}
                    {run.level !== run.ruleLevel ? <span className="vip-by-application">{t('web.vip.historyByApplication', { level: run.ruleLevel })}</span> : null}
                  </td>
                  <td>
                    <bdi dir="ltr">{run.volume30dUsdt}</bdi>
                  </td>
                  <td>
                    <bdi dir="ltr">{run.balanceUsdt}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
