import { ApiError, type ContractData, errorCatalogue, walletOverviewContract } from '@keel/contracts';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { formatDecimal } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Notice } from '../../shared/ui/components.tsx';
import { describeRefusal, type RefusalFormat } from './refusal.ts';
import {
  channelKeys,
  type DepositStatus,
  depositStatusKeys,
  networkKeys,
  statusTone,
  type WalletNetwork,
  type WithdrawalStatus,
  withdrawalStatusKeys,
} from './wallet-labels.ts';
import './wallet.css';

export type WalletOverview = ContractData<typeof walletOverviewContract>;
export type ChannelView = WalletOverview['channels'][number];

/**
 * GET /home/wallet/overview: channels, the published rules and where the user stands today. The
 * standing moves when staff decide a withdrawal (a pushed `message` event refetches it).
 */
export function useWalletOverview() {
  return useContractQuery(walletOverviewContract, undefined, { refetchInterval: useFallbackPolling() });
}

/** Figures from an answer's `data` in the user's language; numbers and units kept left to right. */
export function useRefusalFormat(): RefusalFormat {
  const { locale } = useI18n();
  return useMemo(
    () => ({
      // U+2066 … U+2069 isolate the number and its unit inside right-to-left text (ADR 0011).
      amount: (value, unit) => `\u2066${formatDecimal(value, locale, { maxFractionDigits: 18 })}${unit ? ` ${unit}` : ''}\u2069`,
      time: (value) => `\u2066${formatDateTime(typeof value === 'number' ? new Date(value).toISOString() : value)}\u2069`,
    }),
    [locale],
  );
}

/** A refused call as `RefusalNotice` shows it: the catalogue message and the answer's `data`. */
export interface Refused {
  message: string;
  data: unknown;
}

/** What a failed call says: its catalogue message and `data`, or "system error" when no answer came. */
export function refusedBy(error: unknown): Refused {
  return error instanceof ApiError ? { message: error.message, data: error.data } : { message: errorCatalogue.SYSTEM_ERROR.msg, data: null };
}

/**
 * A refused call: the catalogue message translated, then the rule and its figures from `data`,
 * and the next step when there is one (verify identity, set the payment password).
 */
export function RefusalNotice({ message, data, asset, testId = 'form-error' }: { message: string; data: unknown; asset?: string; testId?: string }) {
  const { t, tServer } = useI18n();
  const format = useRefusalFormat();
  const refusal = describeRefusal(message, data, format, asset);
  return (
    <div data-error={refusal.errorKey ?? 'UNKNOWN'} className="refusal">
      <Notice tone="error" title={tServer(message)} testId={testId}>
        {refusal.details.map((detail) => (
          <p key={detail.key} data-testid="refusal-detail">
            {t(detail.key, detail.vars)}
          </p>
        ))}
        {refusal.action === 'verify' && (
          <Link to="/person/authentication" className="btn btn-secondary btn-small" data-testid="refusal-verify">
            {t('web.withdraw.refusal.verifyLink')}
          </Link>
        )}
        {refusal.action === 'paymentPassword' && (
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="refusal-set-paypassword">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        )}
      </Notice>
    </div>
  );
}

export function ChannelName({ channel }: { channel: keyof typeof channelKeys }) {
  const { t } = useI18n();
  return <>{t(channelKeys[channel])}</>;
}

export function NetworkName({ network }: { network: WalletNetwork }) {
  const { t } = useI18n();
  return <>{t(networkKeys[network])}</>;
}

export function DepositStatusBadge({ status, testId }: { status: DepositStatus; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`state-badge wallet-status wallet-status-${statusTone(status)}`} data-status={status} data-testid={testId}>
      {t(depositStatusKeys[status])}
    </span>
  );
}

export function WithdrawalStatusBadge({ status, testId }: { status: WithdrawalStatus; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`state-badge wallet-status wallet-status-${statusTone(status)}`} data-status={status} data-testid={testId}>
      {t(withdrawalStatusKeys[status])}
    </span>
  );
}

/** A time in the spec's format, left to right in every language. */
export function Time({ iso, testId }: { iso: string; testId?: string }) {
  return (
    <time className="num" dir="ltr" dateTime={iso} data-testid={testId}>
      {formatDateTime(iso)}
    </time>
  );
}

/** An address or hash in full, for reading and copying; breaks anywhere so it never overflows. */
export function MonoText({ value, testId }: { value: string; testId?: string }) {
  return (
    <bdi dir="ltr" className="mono wallet-mono" data-testid={testId}>
      {value}
    </bdi>
  );
}

/**
 * The head of a deposit or withdrawal row: the channel and the state (`status`, its badge), then the
 * amount and when it was asked for. `testIdPrefix` names the parts (`…-channel`, `…-amount`, `…-time`).
 */
export function RecordSummary({
  record,
  status,
  testIdPrefix,
}: {
  record: { channel: keyof typeof channelKeys; amount: string; asset: string; createdAt: string };
  status: ReactNode;
  testIdPrefix: string;
}) {
  return (
    <>
      <div className="wallet-row-head">
        <strong data-testid={`${testIdPrefix}-channel`}>
          <ChannelName channel={record.channel} />
        </strong>
        {status}
      </div>
      <div className="wallet-row-main">
        <Amount value={record.amount} unit={record.asset} testId={`${testIdPrefix}-amount`} />
        <Time iso={record.createdAt} testId={`${testIdPrefix}-time`} />
      </div>
    </>
  );
}

/**
 * A destructive or final action asked twice: the first press shows the question with "yes" and
 * "no" in place (no browser dialog), the second does it.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  busy,
  testId,
  variant = 'danger',
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  testId: string;
  variant?: 'danger' | 'secondary';
}) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button variant={variant} className="btn-small" onClick={() => setAsking(true)} busy={busy} data-testid={testId}>
        {label}
      </Button>
    );
  }
  return (
    <fieldset className="confirm-inline" data-testid={`${testId}-question`}>
      <legend className="confirm-question">{question}</legend>
      <Button
        variant="danger"
        className="btn-small"
        busy={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
        data-testid={`${testId}-confirm`}
      >
        {confirmLabel}
      </Button>
      <Button variant="ghost" className="btn-small" onClick={() => setAsking(false)} data-testid={`${testId}-keep`}>
        {t('web.wallet.keep')}
      </Button>
    </fieldset>
  );
}

/** The honest-by-construction statement shown wherever a withdrawal waits (decisions page 1.3). */
export function NothingToPayNotice({ testId = 'nothing-to-pay' }: { testId?: string }) {
  const { t } = useI18n();
  return (
    <Notice tone="info" title={t('web.withdraw.nothingToPayTitle')} testId={testId}>
      <p>{t('web.withdraw.nothingToPayBody')}</p>
      <p>{t('web.withdraw.nothingToPayScam')}</p>
    </Notice>
  );
}

export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
