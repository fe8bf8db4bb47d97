import { type EarnSubscription, listEarnSubscriptionsContract, redeemEarnSubscriptionContract } from '@keel/contracts';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, Segmented } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { Sheet } from '../options/Sheet.tsx';
import { type Refused, refusedBy } from '../wallet/WalletParts.tsx';
import { redemptionReturn } from './earn-figures.ts';
import { redeemPasswordSchema } from './earn-form.ts';
import { describeEarnRefusal } from './earn-refusal.ts';
import { EarnFact, EarnRefusalNotice, PaymentPasswordField, useEarnText } from './EarnParts.tsx';
import { EarnSwitch } from './EarnProducts.tsx';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { earnChanged, useEarnSubscription } from './useEarn.ts';

type Scope = 'active' | 'ended';

/** How often the subscriptions in progress are asked again while the push connection is down. */
const ACTIVE_FALLBACK_POLL_MS = 60_000;

/** Every day paid of one subscription, with its journal entry, fetched when the row is opened. */
function Payouts({ subscription }: { subscription: EarnSubscription }) {
  const { t } = useI18n();
  const text = useEarnText();
  const [open, setOpen] = useState(false);
  const detail = useEarnSubscription(subscription.id, open);
  return (
    <details className="earn-payouts" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="earn-sub-details">
      <summary>{t('web.earn.sub.payouts')}</summary>
      {detail.failed && <LoadFailedNotice onRetry={detail.reload} />}
      {detail.data === null ? (
        !detail.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : (
        <>
          <dl className="facts">
            <EarnFact label={t('web.earn.sub.subscribeEntry')} testId="earn-sub-subscribe-entry">
              <bdi dir="ltr">#{detail.data.subscribeEntryId}</bdi>
            </EarnFact>
            {detail.data.closeEntryId && (
              <EarnFact label={t('web.earn.sub.closeEntry')} testId="earn-sub-close-entry">
                <bdi dir="ltr">#{detail.data.closeEntryId}</bdi>
              </EarnFact>
            )}
          </dl>
          {detail.data.payouts.length === 0 ? (
            <p className="muted" data-testid="earn-sub-no-payouts">
              {t('web.earn.sub.noPayouts')}
            </p>
          ) : (
            <ul className="earn-payout-list">
              {detail.data.payouts.map((payout) => (
                <li key={payout.day} data-testid={`earn-payout-${payout.day}`} data-entry-id={payout.entryId ?? ''}>
                  <span>{t('web.earn.sub.payoutDay', { day: payout.day })}</span> <Amount value={payout.interest} unit={subscription.asset} max={8} />{' '}
                  <span className="muted">
                    {text.time(payout.paidAtMs)}
                    {' · '}
                    {payout.entryId ? t('web.earn.sub.entry', { id: payout.entryId }) : t('web.earn.sub.noEntry')}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </details>
  );
}

/** An early redemption: today's penalty by the formula, what returns, the payment password. */
function RedeemSheet({ subscription, onDone, onClose }: { subscription: EarnSubscription; onDone: (answer: EarnSubscription) => void; onClose: () => void }) {
  const { t } = useI18n();
  const text = useEarnText();
  const errorText = useMoneyErrorText();
  const actionKey = useActionKey();
  const [refused, setRefused] = useState<Refused | null>(null);
  const redeem = useContractMutation(redeemEarnSubscriptionContract, { invalidates: earnChanged });
  const form = useContractForm(redeemPasswordSchema, { defaultValues: { paymentPassword: '' } });
  const penalty = subscription.penaltyIfRedeemedNow ?? '0';
  const returned = redemptionReturn(subscription) ?? subscription.principal;
  const refusal = refused ? describeEarnRefusal(refused.message, refused.data, { amount: text.amount, time: String }, subscription.asset) : null;

  const submit = form.handleSubmit(async ({ paymentPassword }) => {
    setRefused(null);
    try {
      const answer = await redeem.mutateAsync({
        params: { subscriptionId: subscription.id },
        body: { paymentPassword },
        idempotencyKey: actionKey.keyFor(subscription.id),
      });
      actionKey.settle();
      onDone(answer);
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      setRefused(refusedBy(error));
      form.setValue('paymentPassword', '');
    }
  });

  return (
    <Sheet title={t('web.earn.redeem.title')} onClose={() => !redeem.isPending && onClose()} testId="earn-redeem-sheet">
      <form className="earn-confirm" onSubmit={submit} noValidate>
        <p>{t('web.earn.redeem.intro', { name: subscription.productName, no: subscription.subscriptionNo })}</p>
        <p className="earn-example" data-testid="earn-redeem-formula">
          {t('web.earn.redeem.formula', {
            rate: text.percent(subscription.penaltyRatePercent),
            days: subscription.remainingDays,
            amount: text.amount(subscription.principal, subscription.asset),
            penalty: text.amount(penalty, subscription.asset),
          })}
        </p>
        <dl className="facts">
          <EarnFact label={t('web.earn.principal')} testId="earn-redeem-principal" value={subscription.principal}>
            <Amount value={subscription.principal} unit={subscription.asset} max={8} />
          </EarnFact>
          <EarnFact label={t('web.earn.penalty')} testId="earn-redeem-penalty" value={penalty}>
            <Amount value={penalty} unit={subscription.asset} max={8} />
          </EarnFact>
          <div className="facts-strong">
            <dt>{t('web.earn.redeem.returns')}</dt>
            <dd data-testid="earn-redeem-returns" data-value={returned}>
              <Amount value={returned} unit={subscription.asset} max={8} />
            </dd>
          </div>
          <EarnFact label={t('web.earn.interestPaid')} testId="earn-redeem-interest" value={subscription.interestPaid}>
            <Amount value={subscription.interestPaid} unit={subscription.asset} max={8} />
          </EarnFact>
        </dl>
        <p className="field-hint">{t('web.earn.redeem.note')}</p>
        {refused && <EarnRefusalNotice message={refused.message} data={refused.data} asset={subscription.asset} testId="earn-redeem-error" />}
        <PaymentPasswordField
          register={form.register}
          setDigits={(digits) => form.setValue('paymentPassword', digits)}
          error={refusal?.field === 'paymentPassword' ? t('web.earn.passwordRefused') : errorText(form.formState.errors.paymentPassword, { required: t('web.earn.passwordRequired') })}
          testId="earn-redeem-password"
          onEdit={() => setRefused(null)}
        />
        <div className="options-sheet-actions">
          <Button variant="secondary" onClick={onClose} disabled={redeem.isPending} data-testid="earn-redeem-cancel">
            {t('web.options.confirm.cancel')}
          </Button>
          <Button type="submit" variant="danger" busy={redeem.isPending} data-testid="earn-redeem-confirm">
            {t('web.earn.redeem.submit')}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

const statusKeys = { active: 'web.earn.status.active', completed: 'web.earn.status.completed', redeemed: 'web.earn.status.redeemed' } as const;

function SubscriptionCard({ subscription, onRedeem }: { subscription: EarnSubscription; onRedeem: () => void }) {
  const { t } = useI18n();
  const text = useEarnText();
  const unit = subscription.asset;
  const active = subscription.status === 'active';
  return (
    <Card className="earn-subscription">
      <article data-testid={`earn-sub-${subscription.id}`} data-status={subscription.status}>
        <h2 className="card-title">
          <span data-testid="earn-sub-name">{subscription.productName}</span>
          <span className={`badge badge-${subscription.status}`} data-testid="earn-sub-status">
            {t(statusKeys[subscription.status])}
          </span>
        </h2>
        <p className="muted">
          <bdi dir="ltr">{subscription.subscriptionNo}</bdi> · {text.time(subscription.subscribedAtMs)}
        </p>
        <dl className="facts">
          <EarnFact label={t('web.earn.principal')} testId="earn-sub-principal" value={subscription.principal}>
            <Amount value={subscription.principal} unit={unit} max={8} />
          </EarnFact>
          <EarnFact label={t('web.earn.sub.yield')} testId="earn-sub-yield" value={subscription.dailyRatePercent}>
            {t('web.earn.sub.yieldValue', { rate: text.percent(subscription.dailyRatePercent), daily: text.amount(subscription.dailyInterest, unit) })}
          </EarnFact>
          <EarnFact label={t('web.earn.interestPaid')} testId="earn-sub-interest" value={subscription.interestPaid}>
            <Amount value={subscription.interestPaid} unit={unit} max={8} /> <span className="muted">{t('web.earn.sub.paidDays', { count: subscription.paidDays, cycle: subscription.cycleDays })}</span>
          </EarnFact>
          <EarnFact label={t('web.earn.estimatedIncome', { count: subscription.cycleDays })} testId="earn-sub-income" value={subscription.estimatedIncome}>
            <Amount value={subscription.estimatedIncome} unit={unit} max={8} />
          </EarnFact>
          {active && (
            <>
              <EarnFact label={t('web.earn.sub.remaining')} testId="earn-sub-remaining" value={String(subscription.remainingDays)}>
                {t('web.earn.days', { count: subscription.remainingDays })}
              </EarnFact>
              <EarnFact label={t('web.earn.sub.nextPayout')} testId="earn-sub-next" value={subscription.nextPayoutAtMs === null ? '' : String(subscription.nextPayoutAtMs)}>
                {subscription.nextPayoutAtMs === null ? '—' : text.time(subscription.nextPayoutAtMs)}
              </EarnFact>
            </>
          )}
          <EarnFact label={t('web.earn.maturity')} testId="earn-sub-maturity" value={String(subscription.maturesAtMs)}>
            {text.time(subscription.maturesAtMs)}
          </EarnFact>
          {active &&
            (subscription.penaltyIfRedeemedNow === null ? (
              <EarnFact label={t('web.earn.earlyRedemption')} testId="earn-sub-penalty-now" value="">
                {t('web.earn.earlyNotAllowed')}
              </EarnFact>
            ) : (
              <EarnFact label={t('web.earn.sub.penaltyNow')} testId="earn-sub-penalty-now" value={subscription.penaltyIfRedeemedNow}>
                <Amount value={subscription.penaltyIfRedeemedNow} unit={unit} max={8} />
              </EarnFact>
            ))}
          {!active && (
            <>
              {subscription.closedAtMs !== null && (
                <EarnFact label={t('web.earn.sub.closedAt')} testId="earn-sub-closed-at">
                  {text.time(subscription.closedAtMs)}
                </EarnFact>
              )}
              {subscription.penalty !== null && (
                <EarnFact label={t('web.earn.penalty')} testId="earn-sub-penalty" value={subscription.penalty}>
                  <Amount value={subscription.penalty} unit={unit} max={8} />
                </EarnFact>
              )}
              {subscription.returned !== null && (
                <EarnFact label={t('web.earn.sub.returned')} testId="earn-sub-returned" value={subscription.returned}>
                  <Amount value={subscription.returned} unit={unit} max={8} />
                </EarnFact>
              )}
            </>
          )}
        </dl>
        {active && subscription.earlyRedemption && (
          <Button variant="secondary" block onClick={onRedeem} data-testid="earn-sub-redeem">
            {t('web.earn.redeem.button')}
          </Button>
        )}
        <Payouts subscription={subscription} />
      </article>
    </Card>
  );
}

/**
 * /Lockup/subscribe: the user's subscriptions, in progress or ended (completed or redeemed, the
 * tab in the address: `?scope=ended`), each with its principal, yield, interest paid, days
 * remaining, next payout, maturity and today's penalty; an early redemption states the penalty by
 * the formula and what returns before it asks for the payment password.
 */
export function EarnSubscriptions() {
  const { t } = useI18n();
  const text = useEarnText();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const scope: Scope = params.get('scope') === 'ended' ? 'ended' : 'active';
  // A payout, a maturity or a redemption elsewhere comes as the `earn.subscription` push event, which
  // refetches this list (cache-sync.ts); the days left and today's penalty change only at payouts.
  // While the push connection is down, subscriptions in progress are asked again every minute.
  const fallback = useFallbackPolling(ACTIVE_FALLBACK_POLL_MS);
  const list = usePagedQuery(listEarnSubscriptionsContract, { scope }, { refetchInterval: scope === 'active' ? fallback : false });
  const [redeeming, setRedeeming] = useState<EarnSubscription | null>(null);
  const [redeemed, setRedeemed] = useState<EarnSubscription | null>(null);
  const subscribed = (location.state as { subscribed?: string } | null)?.subscribed;

  return (
    <>
      <EarnSwitch current="mine" />
      {subscribed && !redeemed && (
        <Notice testId="earn-subscribed">
          {t('web.earn.subscribed', { no: subscribed })}
        </Notice>
      )}
      {redeemed && (
        <Notice testId="earn-redeemed">
          <span data-penalty={redeemed.penalty ?? ''} data-returned={redeemed.returned ?? ''}>
            {t('web.earn.redeem.done', {
              no: redeemed.subscriptionNo,
              penalty: text.amount(redeemed.penalty ?? '0', redeemed.asset),
              returned: text.amount(redeemed.returned ?? '0', redeemed.asset),
            })}
          </span>
        </Notice>
      )}
      <Segmented
        label={t('web.earn.mine.title')}
        value={scope}
        onChange={(value) => setParams(value === 'ended' ? { scope: 'ended' } : {})}
        options={[
          { value: 'active', label: t('web.earn.mine.active'), testId: 'earn-scope-active' },
          { value: 'ended', label: t('web.earn.mine.ended'), testId: 'earn-scope-ended' },
        ]}
      />
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : list.data.items.length === 0 ? (
        <p className="muted" data-testid="earn-subs-empty">
          {t(scope === 'active' ? 'web.earn.mine.noneActive' : 'web.earn.mine.noneEnded')}
        </p>
      ) : (
        <div className="earn-subscriptions" data-testid={`earn-subs-${scope}`}>
          {list.data.items.map((subscription) => (
            <SubscriptionCard key={subscription.id} subscription={subscription} onRedeem={() => setRedeeming(subscription)} />
          ))}
        </div>
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="earn-subs" />}
      {redeeming && (
        <RedeemSheet
          subscription={redeeming}
          onClose={() => setRedeeming(null)}
          onDone={(answer) => {
            setRedeeming(null);
            setRedeemed(answer);
          }}
        />
      )}
    </>
  );
}
