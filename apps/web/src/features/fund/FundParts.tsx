import type { FundInvestmentView, FundRequestView, LoanPrice } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Notice } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { EarnFact, PaymentPasswordField, useEarnText } from '../earn/EarnParts.tsx';
import { Sheet } from '../options/Sheet.tsx';
import { type Refused, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { raisedPercent } from './fund-figures.ts';
import { fundPasswordSchema } from './fund-form.ts';
import { describeFundRefusal } from './fund-refusal.ts';
import '../earn/earn.css';
import './fund.css';

/** Amounts with their unit, percents and times in the user's language, isolated left to right (the earn screens' helpers). */
export const useFundText = useEarnText;

/** A fact of a definition list: `testId` on the value, with the raw value in `data-value`. */
export const FundFact = EarnFact;

export const requestStatusKeys: Record<FundRequestView['status'], MessageKey> = {
  review: 'web.fund.status.review',
  rejected: 'web.fund.status.rejected',
  open: 'web.fund.status.open',
  expired: 'web.fund.status.expired',
  funded: 'web.fund.status.funded',
  repaid: 'web.fund.status.repaid',
  defaulted: 'web.fund.status.defaulted',
};

export const investmentStatusKeys: Record<FundInvestmentView['status'], MessageKey> = {
  held: 'web.fund.investmentStatus.held',
  invested: 'web.fund.investmentStatus.invested',
  refunded: 'web.fund.investmentStatus.refunded',
};

export const borrowerTypeKeys: Record<FundRequestView['borrowerType'], MessageKey> = {
  institution: 'web.fund.borrowerType.institution',
  individual: 'web.fund.borrowerType.individual',
};

/** A request's status as a badge (`data-status` holds the code). */
export function RequestStatusBadge({ status, testId = 'fund-request-status' }: { status: FundRequestView['status']; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`badge fund-badge-${status}`} data-testid={testId} data-status={status}>
      {t(requestStatusKeys[status])}
    </span>
  );
}

/** The two ratings as badges, each named in words for screen readers. */
export function Ratings({ request }: { request: Pick<FundRequestView, 'creditRating' | 'investmentRating'> }) {
  const { t } = useI18n();
  return (
    <span className="fund-ratings">
      <span className={`badge fund-rating fund-rating-${request.creditRating}`} data-testid="fund-credit-rating" data-rating={request.creditRating}>
        {t('web.fund.rating.creditShort', { rating: request.creditRating })}
      </span>
      <span className={`badge fund-rating fund-rating-${request.investmentRating}`} data-testid="fund-investment-rating" data-rating={request.investmentRating}>
        {t('web.fund.rating.investmentShort', { rating: request.investmentRating })}
      </span>
    </span>
  );
}

/** Raised of the amount asked as a progress bar with its figures in words. */
export function RaisedProgress({ request }: { request: Pick<FundRequestView, 'amount' | 'raised' | 'remaining'> }) {
  const { t } = useI18n();
  const text = useFundText();
  const percent = raisedPercent(request);
  const label = t('web.fund.progress.label', { raised: text.amount(request.raised, 'USDT'), amount: text.amount(request.amount, 'USDT'), percent });
  return (
    <div className="fund-progress-wrap" data-testid="fund-progress" data-raised={request.raised} data-remaining={request.remaining} data-percent={String(percent)}>
      <div className="fund-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={label}>
        <span className="fund-progress-bar" style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="fund-progress-text">
        <span>{label}</span>
        <span className="muted" data-testid="fund-remaining" data-value={request.remaining}>
          {t('web.fund.progress.remaining', { remaining: text.amount(request.remaining, 'USDT') })}
        </span>
      </p>
    </div>
  );
}

/** A recorded price in words: "60,000 USDT (tick #42, 12/05 10:00)"; USDT is 1 with no tick. */
export function FundPriceText({ price, asset, testId }: { price: LoanPrice | null; asset: string; testId?: string }) {
  const { t } = useI18n();
  const text = useFundText();
  if (asset === 'USDT' && (!price || price.tickId === null)) {
    return (
      <span data-testid={testId} data-price="1" data-tick-id="">
        {t('web.fund.priceFixed', { price: text.amount(price?.price ?? '1', 'USDT') })}
      </span>
    );
  }
  if (!price || price.price === null) {
    return (
      <span data-testid={testId} data-tick-id="">
        {t('web.fund.noPrice')}
      </span>
    );
  }
  return (
    <span data-testid={testId} data-price={price.price} data-tick-id={price.tickId ?? ''}>
      {price.tickId === null
        ? t('web.fund.priceFixed', { price: text.amount(price.price, 'USDT') })
        : t('web.fund.priceTick', { price: text.amount(price.price, 'USDT'), tick: price.tickId, time: price.atMs === null ? '—' : text.time(price.atMs) })}
    </span>
  );
}

/** A USDT amount fact. */
export function UsdtFact({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  return (
    <FundFact label={label} testId={testId} value={value ?? ''}>
      {value === null ? '—' : <Amount value={value} unit="USDT" max={6} />}
    </FundFact>
  );
}

/** A refused publication or investment: the catalogue message translated, the rule and its figures, the next step. */
export function FundRefusalNotice({ refused, action, testId }: { refused: Refused; action: 'publish' | 'invest'; testId: string }) {
  const { t, tServer } = useI18n();
  const format = useRefusalFormat();
  const refusal = describeFundRefusal(refused.message, refused.data, format, action);
  return (
    <div data-error={refusal.errorKey ?? 'UNKNOWN'} className="refusal">
      <Notice tone="error" title={tServer(refused.message)} testId={testId}>
        {refusal.details.map((detail) => (
          <p key={detail.key} data-testid="refusal-detail">
            {t(detail.key, detail.vars)}
          </p>
        ))}
        {refusal.needsPaymentPassword && (
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="fund-set-paypassword">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        )}
        {refusal.needsVerification && (
          <Link to="/person/authentication" className="btn btn-primary btn-small" data-testid="fund-verify-link">
            {t('web.fund.hub.verifyLink')}
          </Link>
        )}
      </Notice>
    </div>
  );
}

/**
 * The payment password sheet of a fund call: what is about to happen (`children`), the six digits,
 * the refusal if the last try was refused. `onConfirm` answers whether the call went through.
 */
export function FundPasswordSheet({
  title,
  testId,
  submitLabel,
  action,
  busy,
  refused,
  onConfirm,
  onEdit,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  submitLabel: string;
  action: 'publish' | 'invest';
  busy: boolean;
  refused: Refused | null;
  onConfirm: (paymentPassword: string) => Promise<boolean>;
  onEdit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const errorText = useMoneyErrorText();
  const format = useRefusalFormat();
  const form = useContractForm(fundPasswordSchema, { defaultValues: { paymentPassword: '' } });
  const [sent, setSent] = useState(false);
  const refusal = refused ? describeFundRefusal(refused.message, refused.data, format, action) : null;
  const submit = form.handleSubmit(async ({ paymentPassword }) => {
    setSent(true);
    if (!(await onConfirm(paymentPassword))) form.setValue('paymentPassword', '');
  });
  return (
    <Sheet title={title} onClose={() => !busy && onClose()} testId={testId}>
      <form className="earn-confirm" onSubmit={submit} noValidate aria-label={title}>
        {children}
        {refused && sent && <FundRefusalNotice refused={refused} action={action} testId={`${testId}-error`} />}
        <PaymentPasswordField
          register={form.register}
          setDigits={(digits) => form.setValue('paymentPassword', digits)}
          error={refusal?.field === 'paymentPassword' ? t('web.fund.passwordRefused') : errorText(form.formState.errors.paymentPassword, { required: t('web.fund.passwordRequired') })}
          testId={`${testId}-password`}
          onEdit={onEdit}
        />
        <div className="options-sheet-actions">
          <Button variant="secondary" onClick={onClose} disabled={busy} data-testid={`${testId}-cancel`}>
            {t('web.fund.cancel')}
          </Button>
          <Button type="submit" busy={busy} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

/** The fund section's four ways, each its own page. */
const sections = [
  { key: 'hub', to: '/fund', label: 'web.fund.nav.hub' },
  { key: 'introduction', to: '/fund/introduction', label: 'web.fund.nav.introduction' },
  { key: 'pool', to: '/fund/pool', label: 'web.fund.nav.pool' },
  { key: 'investment', to: '/fund/investment', label: 'web.fund.nav.investments' },
] as const satisfies readonly { key: string; to: string; label: MessageKey }[];

export function FundSwitch({ current }: { current: (typeof sections)[number]['key'] | null }) {
  const { t } = useI18n();
  return (
    <nav className="earn-switch fund-switch" aria-label={t('web.fund.nav.label')} data-testid="fund-switch">
      {sections.map((each) => (
        <Link
          key={each.key}
          to={each.to}
          className={each.key === current ? 'earn-switch-link active' : 'earn-switch-link'}
          aria-current={each.key === current ? 'page' : undefined}
          data-testid={`fund-switch-${each.key}`}
        >
          {t(each.label)}
        </Link>
      ))}
    </nav>
  );
}
