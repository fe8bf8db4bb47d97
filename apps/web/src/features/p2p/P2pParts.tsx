import { ApiError, type contactMethodKinds, errorCatalogue } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ComponentPropsWithRef, type ReactNode, useId, useMemo } from 'react';
import { Link } from 'react-router';
import { intlLocale } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Notice } from '../../shared/ui/components.tsx';
import { ConfirmAction, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { FIAT_CODES } from './ad-form.ts';
import {
  formatCountdown,
  type OrderActions,
  orderStatusKeys,
  orderStatusMessageKey,
  orderStatusTone,
  type P2pOrder,
  type P2pOrderStatus,
  paymentRemainingMs,
} from './order-rules.ts';
import { describeP2pRefusal, type P2pRefusalContext } from './p2p-refusal.ts';
import type { useOrderStep } from './useOrderStep.ts';
import '../auth/auth.css';
import './p2p.css';

type ContactKind = (typeof contactMethodKinds)[number];

/** A refused call as the screens keep it: the catalogue's English message and the answer's data. */
export interface Refused {
  message: string;
  data: unknown;
}

/** The refusal of any thrown error: an API answer as it came, anything else as "system error". */
export function refusedOf(error: unknown): Refused {
  return error instanceof ApiError ? { message: error.message, data: error.data } : { message: errorCatalogue.SYSTEM_ERROR.msg, data: null };
}

/**
 * A refused P2P call: the catalogue message translated, the problem named in `data` in words, and
 * the next step where there is one (verify, advanced verification, bind a contact method, set the
 * payment password, move USDT to the fiat account).
 */
export function P2pRefusalNotice({ refused, testId = 'p2p-error', context }: { refused: Refused; testId?: string; context?: P2pRefusalContext }) {
  const { t, tServer } = useI18n();
  const format = useRefusalFormat();
  const refusal = describeP2pRefusal(
    refused.message,
    refused.data,
    {
      amount: format.amount,
      time: format.time,
    },
    context,
  );
  return (
    <div data-error={refusal.errorKey ?? 'UNKNOWN'} className="refusal">
      <Notice tone="error" title={tServer(refused.message)} testId={testId}>
        {refusal.details.map((detail) => (
          <p key={detail.key} data-testid="p2p-refusal-detail">
            {t(detail.key, detail.vars)}
          </p>
        ))}
        {refusal.action === 'verify' && (
          <Link to="/person/authentication" className="btn btn-secondary btn-small" data-testid="p2p-refusal-verify">
            {t('web.p2p.refusal.verifyLink')}
          </Link>
        )}
        {refusal.action === 'advanced' && (
          <Link to="/person/advanced" className="btn btn-secondary btn-small" data-testid="p2p-refusal-advanced">
            {t('web.p2p.refusal.advancedLink')}
          </Link>
        )}
        {refusal.action === 'contact' && (
          <Link to="/safeSetting/contact" className="btn btn-primary btn-small" data-testid="p2p-refusal-contact">
            {t('web.p2p.refusal.contactLink')}
          </Link>
        )}
        {refusal.action === 'transfer' && (
          <Link to="/assets/transfer" className="btn btn-primary btn-small" data-testid="p2p-refusal-transfer">
            {t('web.p2p.transferToFiat')}
          </Link>
        )}
        {refusal.action === 'paymentPassword' && (
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="p2p-refusal-paypassword">
            {t('web.p2p.refusal.paymentPasswordLink')}
          </Link>
        )}
      </Notice>
    </div>
  );
}

/** A fiat amount: exactly two decimals and its ISO code, left to right in every language. */
export function FiatAmount({ value, fiat, testId }: { value: string; fiat: string; testId?: string }) {
  return <Amount value={value} unit={fiat} min={2} max={2} testId={testId} />;
}

/** A USDT quantity (up to six decimals). */
export function UsdtAmount({ value, testId }: { value: string; testId?: string }) {
  return <Amount value={value} unit="USDT" min={2} max={6} testId={testId} />;
}

/** "INR — Indian Rupee" in the user's language (the code alone where the browser knows no name). */
export function useFiatName(): (code: string) => string {
  const { locale } = useI18n();
  return useMemo(() => {
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames([intlLocale(locale)], { type: 'currency' });
    } catch {
      names = undefined;
    }
    return (code: string) => {
      const name = names?.of(code);
      return name && name !== code ? `${code} — ${name}` : code;
    };
  }, [locale]);
}

/** The currency choices of the pickers, the code first so it can be typed to jump. */
export function useFiatOptions(): { value: string; label: string }[] {
  const fiatName = useFiatName();
  return useMemo(() => FIAT_CODES.map((code) => ({ value: code, label: fiatName(code) })), [fiatName]);
}

export function OrderStatusBadge({ status, testId }: { status: P2pOrderStatus; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`state-badge wallet-status wallet-status-${orderStatusTone(status)}`} data-status={status} data-testid={testId}>
      {t(orderStatusKeys[status])}
    </span>
  );
}

/** The spec's message for the order's state, to this side (section 4). */
export function OrderStatusMessage({ order, testId = 'order-status-message' }: { order: P2pOrder; testId?: string }) {
  const { t } = useI18n();
  return (
    <p className="p2p-status-message" data-testid={testId} data-message={orderStatusMessageKey(order)}>
      {t(orderStatusMessageKey(order))}
    </p>
  );
}

/** The time left to pay, live; "time is up" at zero (the server then cancels the order). */
export function PaymentCountdown({ order, now }: { order: P2pOrder; now: number }) {
  const { t } = useI18n();
  const remaining = paymentRemainingMs(order, now);
  if (remaining === null) return null;
  const over = remaining <= 0;
  return (
    <div className={over ? 'p2p-countdown is-over' : 'p2p-countdown'} role="timer" aria-live="off">
      <span className="muted">{t('web.p2p.order.timeLeft')}</span>
      <bdi dir="ltr" className="num p2p-countdown-value" data-testid="order-countdown" data-remaining-ms={remaining}>
        {formatCountdown(remaining)}
      </bdi>
      {over && (
        <span className="field-hint warning-text" data-testid="order-countdown-over">
          {t('web.p2p.order.timeUp')}
        </span>
      )}
    </div>
  );
}

/** The honest-by-construction note of every fiat order: the fiat moves outside Keel, the coins wait in escrow. */
export function EscrowNotice({ testId = 'escrow-note', children }: { testId?: string; children?: ReactNode }) {
  const { t } = useI18n();
  return (
    <Notice tone="info" title={t('web.p2p.escrow.title')} testId={testId}>
      <div className="p2p-notice-text">
        <p>{t('web.p2p.escrow.body')}</p>
        <p>{t('web.p2p.escrow.neverPayKeel')}</p>
        {children}
      </div>
    </Notice>
  );
}

/** The way into the shop's other screens. */
export function ShopLinks({ except }: { except?: 'shop' | 'sell' | 'orders' | 'chats' }) {
  const { t } = useI18n();
  const links = [
    { key: 'shop', to: '/trade/shopping', label: t('web.p2p.shop.title'), testId: 'to-shop' },
    { key: 'sell', to: '/trade/shopping/sell', label: t('web.p2p.shop.postAnAd'), testId: 'to-post-ad' },
    { key: 'orders', to: '/orderlist', label: t('web.p2p.orders.title'), testId: 'to-orderlist' },
    { key: 'chats', to: '/trade/contact/list', label: t('web.p2p.chats.title'), testId: 'to-chat-list' },
  ].filter((link) => link.key !== except);
  return (
    <nav className="wallet-links" aria-label={t('web.p2p.shop.more')}>
      {links.map((link) => (
        <Link key={link.key} to={link.to} data-testid={link.testId}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * A labelled multi-line text field, its error announced to screen readers. It takes a textarea's
 * props, `ref` included, so react-hook-form's `register(name)` spreads onto it (ADR 0027).
 */
export function TextAreaField({
  label,
  error,
  hint,
  rows = 3,
  testId,
  ...rest
}: Omit<ComponentPropsWithRef<'textarea'>, 'id'> & { label: string; error?: string; hint?: string; testId?: string }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <textarea id={id} rows={rows} aria-invalid={error ? true : undefined} aria-describedby={describedBy} data-testid={testId} {...rest} />
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export const contactKindKeys: Record<ContactKind, MessageKey> = {
  phone: 'web.settings.contactKind.phone',
  email: 'web.settings.contactKind.email',
  telegram: 'web.settings.contactKind.telegram',
  whatsapp: 'web.settings.contactKind.whatsapp',
  wechat: 'web.settings.contactKind.wechat',
  line: 'web.settings.contactKind.line',
  other: 'web.settings.contactKind.other',
};

/**
 * The buyer's two steps before paying is confirmed: "I have paid" and cancel, each with its
 * confirmation. The pay page and the order page show them under their own test-id prefix.
 */
export function BuyerPaymentActions({
  order,
  actions,
  step,
  testIds,
}: {
  order: P2pOrder;
  actions: Pick<OrderActions, 'markPaid' | 'cancel'>;
  step: ReturnType<typeof useOrderStep>;
  testIds: { markPaid: string; cancel: string };
}) {
  const { t } = useI18n();
  return (
    <>
      {actions.markPaid && (
        <ConfirmAction
          label={t('web.p2p.order.markPaid')}
          question={t('web.p2p.order.markPaidQuestion', { total: order.total, fiat: order.fiat })}
          confirmLabel={t('web.p2p.order.markPaidConfirm')}
          busy={step.busy === 'markPaid'}
          variant="secondary"
          onConfirm={() => void step.run({ kind: 'markPaid' })}
          testId={testIds.markPaid}
        />
      )}
      {actions.cancel && (
        <ConfirmAction
          label={t('web.p2p.order.cancel')}
          question={t('web.p2p.order.cancelQuestion')}
          confirmLabel={t('web.p2p.order.cancelConfirm')}
          busy={step.busy === 'cancel'}
          onConfirm={() => void step.run({ kind: 'cancel' })}
          testId={testIds.cancel}
        />
      )}
    </>
  );
}
