import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { useStaffImage } from '../../shared/staff-image.ts';
import { Field } from '../finance/finance-shared.tsx';
import { formatCountdown, givenBankDetails, type MerchantRequest, remainingMs, runningDeadline } from './c2c-console.ts';

// The parts the merchant console and support's C2C appeals both draw: an order's facts, a
// withdrawal's bank details, a deposit's screenshot and the countdown of the window that runs.

/** This device's clock, moved on every `everyMs` while shown (countdowns). */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The window an order runs against now (the offer, the payment, a withdrawal's confirmation), as
 * what is left of it and its end. Counted on this device's clock, never above the window; at zero
 * it says the window may be over: the server's job decides, nothing here is switched off.
 */
export function Countdown({ request, testId }: { request: MerchantRequest; testId: string }) {
  const { t } = useI18n();
  const now = useNow();
  const deadline = runningDeadline(request);
  if (!deadline) return null;
  const left = remainingMs(deadline.deadlineMs, now, deadline.windowMs);
  return (
    <p className={left === 0 ? 'notice' : 'muted'} data-testid={testId} data-remaining-ms={left} data-deadline-ms={deadline.deadlineMs}>
      {left === 0
        ? t(`admin.c2c.deadline.${deadline.kind}Over`)
        : t(`admin.c2c.deadline.${deadline.kind}`, { left: formatCountdown(left), time: formatEpochMs(deadline.deadlineMs) })}
    </p>
  );
}

/** An order's state as a badge. */
export function StatusBadge({ request }: { request: Pick<MerchantRequest, 'status'> }) {
  const { t } = useI18n();
  return (
    <span className={`status status-c2c-${request.status}`} data-testid="c2c-status" data-status={request.status}>
      {t(`admin.c2c.status.${request.status}`)}
    </span>
  );
}

/** The facts of an order, as the merchant and support read them; none of them is typed by staff. */
export function OrderFields({ request, merchant = false }: { request: MerchantRequest; merchant?: boolean }) {
  const { t } = useI18n();
  const money = (amount: string | null, unit: string) => (amount === null ? null : `${amount} ${unit}`);
  const price = (value: string | null) => (value === null ? null : t('admin.c2c.priceValue', { price: value, currency: request.currency }));
  return (
    <dl className="fields" data-testid="c2c-order-fields">
      <Field label={t('admin.c2c.field.orderNo')} testId="field-orderNo">
        <code className="order-no">{request.orderNo}</code> (#{request.id})
      </Field>
      <Field label={t('admin.c2c.field.kind')} testId="field-kind">
        {t(`admin.c2c.kind.${request.kind}`)}
      </Field>
      <Field label={t('admin.c2c.field.status')} testId="field-status">
        <StatusBadge request={request} />
      </Field>
      <Field label={t('admin.c2c.field.user')} testId="field-user">
        {request.user}
      </Field>
      {!merchant && request.merchant && (
        <Field label={t('admin.c2c.field.merchant')} testId="field-merchant">
          {request.merchant.name} (#{request.merchant.id})
        </Field>
      )}
      <Field label={t('admin.c2c.field.country')} testId="field-country">
        {t('admin.c2c.countryValue', { country: request.country, currency: request.currency })}
      </Field>
      <Field label={t('admin.c2c.field.usdt')} testId="field-usdt">
        {money(request.usdt, 'USDT')}
      </Field>
      <Field label={t('admin.c2c.field.quotedPrice')} testId="field-quotedPrice">
        {price(request.quotedPrice)}
      </Field>
      <Field label={t('admin.c2c.field.price')} testId="field-price">
        {price(request.price)}
      </Field>
      <Field label={t(request.kind === 'deposit' ? 'admin.c2c.field.fiatDeposit' : 'admin.c2c.field.fiatWithdrawal')} testId="field-fiat">
        {money(request.fiat, request.currency)}
      </Field>
      <Field label={t('admin.c2c.field.createdAt')} testId="field-createdAt">
        {formatEpochMs(request.createdAtMs)}
      </Field>
      <Field label={t('admin.c2c.field.paidAt')} testId="field-paidAt">
        {request.paidAtMs === null ? null : formatEpochMs(request.paidAtMs)}
      </Field>
      <Field label={t('admin.c2c.profile.paymentDetails')} testId="field-paymentDetails">
        {request.kind === 'deposit' && request.paymentDetails ? (
          <span className="chat-text" dir="auto">
            {request.paymentDetails}
          </span>
        ) : null}
      </Field>
      <Field label={t('admin.c2c.field.paymentReference')} testId="field-paymentReference">
        {request.paymentReference === null ? null : <code>{request.paymentReference}</code>}
      </Field>
      <Field label={t('admin.c2c.field.appeal')} testId="field-appeal">
        {request.appeal && (
          <>
            {t(`admin.c2c.appealBy.${request.appeal.by}`)}:{' '}
            <span className="chat-text" dir="auto">
              {request.appeal.reason}
            </span>
          </>
        )}
      </Field>
      <Field label={t('admin.c2c.field.failReason')} testId="field-failReason">
        {request.failReason && t(`admin.c2c.failReason.${request.failReason}`)}
      </Field>
      <Field label={t('admin.c2c.field.resolution')} testId="field-resolution">
        {request.resolution && (
          <>
            {t(`admin.c2c.outcome.${request.resolution.outcome}`)}:{' '}
            <span className="chat-text" dir="auto">
              {request.resolution.note}
            </span>
          </>
        )}
      </Field>
      <Field label={t('admin.c2c.field.endedAt')} testId="field-endedAt">
        {request.endedAtMs === null ? null : formatEpochMs(request.endedAtMs)}
      </Field>
      <Field label={t('admin.c2c.field.closingEntry')} testId="field-closingEntry">
        {request.closingEntryId && `#${request.closingEntryId}`}
      </Field>
    </dl>
  );
}

/** A withdrawal's bank details as the user gave them (the merchant pays to these). */
export function BankDetailsList({ request }: { request: MerchantRequest }) {
  const { t } = useI18n();
  const rows = givenBankDetails(request.bankDetails);
  if (rows.length === 0) return null;
  return (
    <section aria-label={t('admin.c2c.bank.title')} data-testid="c2c-order-bank">
      <h4>{t('admin.c2c.bank.title')}</h4>
      <dl className="fields">
        {rows.map(({ field, value }) => (
          <Field key={field} label={t(`admin.c2c.bank.${field}`)} testId={`bank-${field}`}>
            <span className="chat-text" dir="auto">
              {value}
            </span>
          </Field>
        ))}
      </dl>
    </section>
  );
}

/**
 * A deposit's transaction screenshot, fetched with the staff token (`useStaffImage`): every fetch
 * is a view the server writes to the audit log, so it is fetched once while shown.
 */
export function ProofImage({ request, testId }: { request: MerchantRequest; testId: string }) {
  const { t, describeError } = useI18n();
  const { url, error } = useStaffImage(`/home/admin/c2c/requests/${request.id}/proof`);
  const label = t('admin.c2c.proof.alt', { orderNo: request.orderNo, user: request.user });
  if (error) return <ErrorAlert message={describeError(error)} />;
  if (!url) return <p className="muted">{t('admin.c2c.proof.loading')}</p>;
  return (
    <a href={url} target="_blank" rel="noreferrer" data-testid={`${testId}-link`}>
      <img className="chat-image" src={url} alt={label} data-testid={testId} />
    </a>
  );
}
