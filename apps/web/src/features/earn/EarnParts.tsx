import type { EarnProduct } from '@keel/contracts';
import type { ChangeEvent } from 'react';
import type { UseFormRegister } from 'react-hook-form';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { ValueFact as EarnFact, useTermText as useEarnText } from '../../shared/ui/Facts.tsx';
import { Notice, TextField } from '../../shared/ui/components.tsx';
import { useRefusalFormat } from '../wallet/WalletParts.tsx';
import { type PenaltyExample, penaltyExample } from './earn-figures.ts';
import { digitsOnly } from './earn-form.ts';
import { describeEarnRefusal } from './earn-refusal.ts';
import type { EarnOverviewData } from './useEarn.ts';
import '../options/options.css';
import './earn.css';

type Treasury = EarnOverviewData['treasuries'][number];
/** A product's published terms: what the earn screens get, less the caller's own principal (the transparency page's products). */
type ProductTerms = Omit<EarnProduct, 'userActive'>;

/** Text helpers and facts of the earn screens (the loan screens' too): shared/ui/Facts.tsx. */
export { EarnFact, useEarnText };

/**
 * Who pays the yield, in plain words (ADR 0035): the earn treasury, its ledger balance and what it
 * still owes every active subscription. A subscription is sold only while the balance covers both.
 */
export function TreasuryNote({ treasury, asset }: { treasury: Treasury | undefined; asset: string }) {
  const { t } = useI18n();
  const text = useEarnText();
  if (!treasury) {
    return (
      <p className="earn-treasury muted" data-testid={`earn-treasury-${asset}`}>
        {t('web.earn.treasury.none', { asset })}
      </p>
    );
  }
  return (
    <div className="earn-treasury" data-testid={`earn-treasury-${asset}`} data-balance={treasury.balance} data-owed={treasury.owed}>
      <p data-testid="earn-treasury-text">{t('web.earn.treasury.text', { balance: text.amount(treasury.balance, asset), owed: text.amount(treasury.owed, asset) })}</p>
      <p className="field-hint">{t('web.earn.treasury.rule', { account: treasury.accountId })}</p>
    </div>
  );
}

/** The product's terms as facts: yield, cycle, range, quota, payout time, early redemption. */
export function ProductFacts({ product, testPrefix }: { product: ProductTerms; testPrefix: string }) {
  const { t } = useI18n();
  const text = useEarnText();
  return (
    <dl className="facts earn-facts">
      <EarnFact label={t('web.earn.dailyRate')} testId={`${testPrefix}-rate`} value={product.dailyRatePercent}>
        {text.percent(product.dailyRatePercent)}
      </EarnFact>
      <EarnFact label={t('web.earn.cycle')} testId={`${testPrefix}-cycle`} value={String(product.cycleDays)}>
        {t('web.earn.days', { count: product.cycleDays })}
      </EarnFact>
      <EarnFact label={t('web.earn.range')} testId={`${testPrefix}-range`}>
        {t('web.earn.rangeValue', { min: text.amount(product.minAmount, product.asset), max: text.amount(product.maxAmount, product.asset) })}
      </EarnFact>
      <EarnFact label={t('web.earn.remainingQuota')} testId={`${testPrefix}-quota`} value={product.remainingQuota}>
        <Amount value={product.remainingQuota} unit={product.asset} max={8} />
      </EarnFact>
      <EarnFact label={t('web.earn.payoutTime')} testId={`${testPrefix}-payout`}>
        {t('web.earn.payoutTimeValue', { time: product.payoutTimeUtc })}
      </EarnFact>
      <EarnFact label={t('web.earn.earlyRedemption')} testId={`${testPrefix}-early`}>
        {product.earlyRedemption ? t('web.earn.earlyAllowed', { rate: text.percent(product.penaltyRatePercent) }) : t('web.earn.earlyNotAllowed')}
      </EarnFact>
    </dl>
  );
}

/** The penalty formula with the product's own rate worked through: rate × remaining days × amount. */
export function PenaltyFormula({ product }: { product: ProductTerms }) {
  const { t } = useI18n();
  const text = useEarnText();
  if (!product.earlyRedemption) {
    return (
      <p data-testid="earn-penalty-formula" data-early="false">
        {t('web.earn.terms.noEarly')}
      </p>
    );
  }
  const example: PenaltyExample = penaltyExample(product);
  return (
    <div data-testid="earn-penalty-formula" data-early="true">
      <p>{t('web.earn.terms.penaltyFormula')}</p>
      <p className="earn-example" data-testid="earn-penalty-example" data-penalty={example.penalty}>
        {t('web.earn.terms.penaltyExample', {
          rate: text.percent(example.ratePercent),
          days: example.days,
          amount: text.amount(example.amount, product.asset),
          penalty: text.amount(example.penalty, product.asset),
        })}
      </p>
    </div>
  );
}

/** The payment password: six digits, nothing else can be typed. */
export function PaymentPasswordField({
  register,
  setDigits,
  error,
  testId,
  onEdit,
}: {
  register: UseFormRegister<{ paymentPassword: string }>;
  setDigits: (digits: string) => void;
  error: string | undefined;
  testId: string;
  onEdit: () => void;
}) {
  const { t } = useI18n();
  return (
    <TextField
      label={t('web.earn.paymentPassword')}
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={6}
      hint={t('web.settings.sixDigitsHint')}
      data-testid={testId}
      {...register('paymentPassword', {
        onChange: (event: ChangeEvent<HTMLInputElement>) => {
          const digits = digitsOnly(event.target.value);
          if (digits !== event.target.value) setDigits(digits);
          onEdit();
        },
      })}
      error={error}
    />
  );
}

/** A refused subscription or redemption: the catalogue message translated, the rule and its figures, the next step. */
export function EarnRefusalNotice({ message, data, asset, testId }: { message: string; data: unknown; asset: string; testId: string }) {
  const { t, tServer } = useI18n();
  const format = useRefusalFormat();
  const refusal = describeEarnRefusal(message, data, format, asset);
  return (
    <div data-error={refusal.errorKey ?? 'UNKNOWN'} className="refusal">
      <Notice tone="error" title={tServer(message)} testId={testId}>
        {refusal.details.map((detail) => (
          <p key={detail.key} data-testid="refusal-detail">
            {t(detail.key, detail.vars)}
          </p>
        ))}
        {refusal.needsPaymentPassword && (
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="earn-set-paypassword">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        )}
      </Notice>
    </div>
  );
}
