import type { LoanPrice, LoanView } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { EarnFact, PaymentPasswordField, useEarnText } from '../earn/EarnParts.tsx';
import { Sheet } from '../options/Sheet.tsx';
import { type Refused, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { applyPasswordSchema } from './loan-form.ts';
import { describeLoanRefusal } from './loan-refusal.ts';
import '../earn/earn.css';
import './loans.css';

/** Amounts with their unit, percents and times in the user's language, isolated left to right (the earn screens' helpers). */
export const useLoanText = useEarnText;

/** A fact of a definition list: `testId` on the value, with the raw value in `data-value`. */
export const LoanFact = EarnFact;

export const statusKeys: Record<LoanView['status'], MessageKey> = {
  pending: 'web.loans.status.pending',
  passed: 'web.loans.status.passed',
  rejected: 'web.loans.status.rejected',
  repaid: 'web.loans.status.repaid',
  liquidated: 'web.loans.status.liquidated',
};

export const healthKeys: Record<NonNullable<LoanView['health']>, MessageKey> = {
  healthy: 'web.loans.health.healthy',
  margin_call: 'web.loans.health.marginCall',
  liquidate: 'web.loans.health.liquidate',
};

/** A recorded price in words: "60,000 USDT (tick #42, 12/05 10:00)"; USDT is 1 with no tick. */
export function PriceText({ price, testId }: { price: LoanPrice | null; testId?: string }) {
  const { t } = useI18n();
  const text = useLoanText();
  if (!price || price.price === null) {
    return (
      <span data-testid={testId} data-tick-id="">
        {t('web.loans.noPrice')}
      </span>
    );
  }
  return (
    <span data-testid={testId} data-price={price.price} data-tick-id={price.tickId ?? ''}>
      {price.tickId === null
        ? t('web.loans.priceFixed', { price: text.amount(price.price, 'USDT') })
        : t('web.loans.priceTick', { price: text.amount(price.price, 'USDT'), tick: price.tickId, time: price.atMs === null ? '—' : text.time(price.atMs) })}
    </span>
  );
}

/** A refused application or repayment: the catalogue message translated, the rule and its figures, the next step. */
export function LoanRefusalNotice({ refused, action, testId }: { refused: Refused; action: 'apply' | 'repay'; testId: string }) {
  const { t, tServer } = useI18n();
  const format = useRefusalFormat();
  const refusal = describeLoanRefusal(refused.message, refused.data, format, action);
  return (
    <div data-error={refusal.errorKey ?? 'UNKNOWN'} className="refusal">
      <Notice tone="error" title={tServer(refused.message)} testId={testId}>
        {refusal.details.map((detail) => (
          <p key={detail.key} data-testid="refusal-detail">
            {t(detail.key, detail.vars)}
          </p>
        ))}
        {refusal.needsPaymentPassword && (
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="loan-set-paypassword">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        )}
      </Notice>
    </div>
  );
}

/**
 * The payment password sheet of a loan call: what is about to happen (`children`), the six digits,
 * the refusal if the last try was refused. `onConfirm` answers whether the call went through.
 */
export function LoanPasswordSheet({
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
  action: 'apply' | 'repay';
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
  const form = useContractForm(applyPasswordSchema, { defaultValues: { paymentPassword: '' } });
  const [sent, setSent] = useState(false);
  const refusal = refused ? describeLoanRefusal(refused.message, refused.data, format, action) : null;
  const submit = form.handleSubmit(async ({ paymentPassword }) => {
    setSent(true);
    if (!(await onConfirm(paymentPassword))) form.setValue('paymentPassword', '');
  });
  return (
    <Sheet title={title} onClose={() => !busy && onClose()} testId={testId}>
      <form className="earn-confirm" onSubmit={submit} noValidate aria-label={title}>
        {children}
        {refused && sent && <LoanRefusalNotice refused={refused} action={action} testId={`${testId}-error`} />}
        <PaymentPasswordField
          register={form.register}
          setDigits={(digits) => form.setValue('paymentPassword', digits)}
          error={refusal?.field === 'paymentPassword' ? t('web.loans.passwordRefused') : errorText(form.formState.errors.paymentPassword, { required: t('web.loans.passwordRequired') })}
          testId={`${testId}-password`}
          onEdit={onEdit}
        />
        <div className="options-sheet-actions">
          <Button variant="secondary" onClick={onClose} disabled={busy} data-testid={`${testId}-cancel`}>
            {t('web.options.confirm.cancel')}
          </Button>
          <Button type="submit" busy={busy} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

/** The four ways of the loan area, each its own page. */
const sections = [
  { key: 'overview', to: '/person/Loan', label: 'web.loans.nav.overview' },
  { key: 'apply', to: '/person/Apply', label: 'web.loans.nav.apply' },
  { key: 'list', to: '/person/loanList', label: 'web.loans.nav.list' },
  { key: 'repay', to: '/person/loanBack', label: 'web.loans.nav.repay' },
] as const satisfies readonly { key: string; to: string; label: MessageKey }[];

export function LoanSwitch({ current }: { current: (typeof sections)[number]['key'] | null }) {
  const { t } = useI18n();
  return (
    <nav className="earn-switch loans-switch" aria-label={t('web.loans.nav.label')} data-testid="loan-switch">
      {sections.map((each) => (
        <Link
          key={each.key}
          to={each.to}
          className={each.key === current ? 'earn-switch-link active' : 'earn-switch-link'}
          aria-current={each.key === current ? 'page' : undefined}
          data-testid={`loan-switch-${each.key}`}
        >
          {t(each.label)}
        </Link>
      ))}
    </nav>
  );
}
