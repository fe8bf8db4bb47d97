import {
  type ContractData,
  getInvitationSummaryContract,
  listInviteesContract,
  listInviteRewardsContract,
} from '@keel/contracts';
import { QrCode } from '@keel/ui';
import { useState } from 'react';
import { LIST_PAGE_SIZE } from '../../shared/api/paging.ts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { formatDate, formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { reasonKeys } from '../records/reasons.ts';
import { inviteLink } from './invite-link.ts';
import './invitations.css';

type Summary = ContractData<typeof getInvitationSummaryContract>;

const canCopy = () => typeof navigator !== 'undefined' && typeof navigator.clipboard?.writeText === 'function';
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** The code, the link, its QR code, and copy and share. */
function InviteCard({ summary }: { summary: Summary }) {
  const { t } = useI18n();
  const toast = useToast();
  const link = inviteLink(window.location.origin, summary.link, summary.code);

  async function copy(text: string, done: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast(done);
    } catch {
      // Permission refused: the text stays on screen to copy by hand.
    }
  }

  async function share() {
    try {
      await navigator.share({ title: t('web.invite.shareTitle'), text: t('web.invite.shareText', { code: summary.code }), url: link });
    } catch {
      // Closed by the user, or refused: nothing to say.
    }
  }

  return (
    <Card className="invite-card">
      <h2 className="card-title">{t('web.invite.yourInvitation')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('web.invite.code')}</dt>
          <dd className="facts-with-action">
            <span className="mono" data-testid="invite-code">
              {summary.code}
            </span>
            {canCopy() && (
              <Button variant="ghost" className="btn-small" onClick={() => void copy(summary.code, t('web.invite.codeCopied'))} data-testid="invite-copy-code">
                {t('web.invite.copyCode')}
              </Button>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('web.invite.link')}</dt>
          <dd>
            <bdi dir="ltr" className="mono invite-link" data-testid="invite-link">
              {link}
            </bdi>
          </dd>
        </div>
      </dl>
      <div className="invite-qr-box">
        <div data-testid="invite-qr">
          <QrCode text={link} label={t('web.invite.qrLabel')} />
        </div>
      </div>
      <div className="invite-actions">
        {canCopy() && (
          <Button onClick={() => void copy(link, t('web.invite.linkCopied'))} data-testid="invite-copy-link">
            {t('web.invite.copyLink')}
          </Button>
        )}
        {canShare() && (
          <Button variant="secondary" onClick={() => void share()} data-testid="invite-share">
            {t('web.invite.share')}
          </Button>
        )}
      </div>
    </Card>
  );
}

/** The published rule with its numbers, as the job applies it to people who register now. */
function InviteRule({ rule }: { rule: Summary['rule'] }) {
  const { t } = useI18n();
  return (
    <Card className="invite-rule">
      <section aria-labelledby="invite-rule-title" data-testid="invite-rule" data-share={rule.sharePercent} data-days={rule.periodDays}>
        <h2 className="card-title" id="invite-rule-title">
          {t('web.invite.rule.title')}
        </h2>
        <p data-testid="invite-rule-text">{t('web.invite.rule.share', { percent: rule.sharePercent, period: t('web.invite.days', { count: rule.periodDays }) })}</p>
        <p>{t('web.invite.rule.daily')}</p>
        <p>{t('web.invite.rule.feeKinds')}</p>
        <ul className="invite-fee-kinds" data-testid="invite-fee-kinds">
          {rule.feeKinds.map((kind) => (
            <li key={kind} data-kind={kind}>
              {t(reasonKeys[kind])}
            </li>
          ))}
        </ul>
        <p className="muted">{t('web.invite.rule.notCounted')}</p>
        <p className="muted">{t('web.invite.rule.oneLevel')}</p>
        <p className="muted">{t('web.invite.rule.noSignUpReward')}</p>
      </section>
    </Card>
  );
}

function Totals({ totals }: { totals: Summary['totals'] }) {
  const { t } = useI18n();
  return (
    <Card>
      <h2 className="card-title">{t('web.invite.totals.title')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('web.invite.totals.invitees')}</dt>
          <dd data-testid="invite-total-invitees">{totals.invitees}</dd>
        </div>
        <div>
          <dt>{t('web.invite.totals.verified')}</dt>
          <dd data-testid="invite-total-verified">{totals.verified}</dd>
        </div>
        <div>
          <dt>{t('web.invite.totals.rewards')}</dt>
          <dd data-testid="invite-total-rewards">
            {totals.rewards.length === 0
              ? t('web.invite.totals.none')
              : totals.rewards.map((total) => (
                  <div key={total.asset} data-asset={total.asset}>
                    <Amount value={total.amount} unit={total.asset} />
                  </div>
                ))}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** One page of a list, its page kept on the screen (two lists share this page's address). */
function usePage<C extends typeof listInviteesContract | typeof listInviteRewardsContract>(contract: C) {
  const [page, setPage] = useState(1);
  const query = useContractQuery(contract, { query: { page, pageSize: LIST_PAGE_SIZE } } as never, { keepPrevious: true });
  return { page, setPage, query, data: query.data as ContractData<C> | undefined };
}

function Invitees() {
  const { t } = useI18n();
  const { page, setPage, query, data } = usePage(listInviteesContract);
  return (
    <Card>
      <section aria-labelledby="invite-invitees-title">
        <h2 className="card-title" id="invite-invitees-title">
          {t('web.invite.invitees.title')}
        </h2>
        {loadFailed(query) && <LoadFailedNotice onRetry={() => void query.refetch()} />}
        {data && data.items.length === 0 && <p className="muted" data-testid="invite-invitees-empty">{t('web.invite.invitees.empty')}</p>}
        {data && data.items.length > 0 && (
          <ul className="invite-list" data-testid="invite-invitees">
            {data.items.map((invitee) => (
              <li key={`${invitee.joinedAt}-${invitee.name}`} data-testid="invite-invitee">
                <span className="invite-name" data-testid="invite-invitee-name">
                  <bdi>{invitee.name}</bdi>
                </span>
                <span className="muted">{t('web.invite.invitees.joined', { date: formatDate(invitee.joinedAt) })}</span>
                <span className={invitee.verified ? 'badge badge-active' : 'badge'} data-testid="invite-invitee-verified" data-verified={invitee.verified}>
                  {invitee.verified ? t('web.invite.invitees.verified') : t('web.invite.invitees.notVerified')}
                </span>
                <span className="muted invite-until">{t('web.invite.invitees.until', { date: formatDate(invitee.rewardsUntil) })}</span>
              </li>
            ))}
          </ul>
        )}
        {data && <Pager page={page} total={data.total} loading={query.isPlaceholderData} onPage={setPage} testIdPrefix="invite-invitees" />}
      </section>
    </Card>
  );
}

function Rewards() {
  const { t } = useI18n();
  const { page, setPage, query, data } = usePage(listInviteRewardsContract);
  return (
    <Card>
      <section aria-labelledby="invite-rewards-title">
        <h2 className="card-title" id="invite-rewards-title">
          {t('web.invite.rewards.title')}
        </h2>
        {loadFailed(query) && <LoadFailedNotice onRetry={() => void query.refetch()} />}
        {data && data.items.length === 0 && <p className="muted" data-testid="invite-rewards-empty">{t('web.invite.rewards.empty')}</p>}
        {data && data.items.length > 0 && (
          <ul className="invite-list" data-testid="invite-rewards">
            {data.items.map((reward) => (
              <li key={`${reward.day}-${reward.invitee}-${reward.asset}-${reward.fee}`} data-testid="invite-reward" data-day={reward.day}>
                <span className="invite-name">
                  <bdi dir="ltr">{reward.day}</bdi> · <bdi>{reward.invitee}</bdi>
                </span>
                <span>
                  {t('web.invite.rewards.reward')}: <Amount value={reward.reward} unit={reward.asset} testId="invite-reward-amount" />
                </span>
                <span className="muted">
                  {t('web.invite.rewards.fromFee', { percent: reward.sharePercent })}: <Amount value={reward.fee} unit={reward.asset} />
                </span>
                <span className="muted">{t('web.invite.rewards.credited', { time: formatDateTime(reward.creditedAt) })}</span>
              </li>
            ))}
          </ul>
        )}
        {data && <Pager page={page} total={data.total} loading={query.isPlaceholderData} onPage={setPage} testIdPrefix="invite-rewards" />}
      </section>
    </Card>
  );
}

/**
 * /trade/sgrinvite (issue 20, ADR 0045): the user's invite code and link with its QR code, copy and
 * share; the published reward rule with its numbers; counts and reward totals; the people who
 * registered with the code (masked) and the rewards, each list paged.
 */
export function InvitationScreen() {
  const summary = useContractQuery(getInvitationSummaryContract, {});
  return (
    <>
      {loadFailed(summary) && <LoadFailedNotice onRetry={() => void summary.refetch()} />}
      {summary.data && (
        <>
          <InviteCard summary={summary.data} />
          <InviteRule rule={summary.data.rule} />
          <Totals totals={summary.data.totals} />
        </>
      )}
      <Invitees />
      <Rewards />
    </>
  );
}
