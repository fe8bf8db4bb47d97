import { ApiError, errorCatalogue, setPaymentPasswordContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, PageHeader, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { confirmProblem, retryAfterSeconds, sixDigitsProblem } from '../auth/contact-validation.ts';
import { problemText } from '../auth/problems.ts';
import type { FieldProblems } from '../auth/validation.ts';
import { type SecurityOverview, useSecurity } from './useSecurity.ts';
import '../auth/auth.css';

type Field = 'current' | 'paymentPassword' | 'confirmPaymentPassword';

const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);

/**
 * /person/setting/paypassword: the payment password (six digits, separate from the login
 * password). Set the first time with the login password; changed later with the old one.
 */
export function PayPasswordPage() {
  const i18n = useI18n();
  const { t, tServer } = i18n;
  const toast = useToast();
  const navigate = useNavigate();
  const { overview, failed, reload } = useSecurity();
  const [form, setForm] = useState({ current: '', paymentPassword: '', confirmPaymentPassword: '' });
  const [problems, setProblems] = useState<FieldProblems<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: Field, value: string) => setForm((current) => ({ ...current, [key]: value }));
  const changing = overview?.paymentPasswordSet === true;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!overview) return;
    setFormError(null);
    const found: FieldProblems<Field> = {};
    if (form.current === '') found.current = 'required';
    const next = sixDigitsProblem(form.paymentPassword);
    if (next) found.paymentPassword = next;
    const confirm = confirmProblem(form.paymentPassword, form.confirmPaymentPassword);
    if (confirm) found.confirmPaymentPassword = confirm;
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await api(setPaymentPasswordContract, {
        body: {
          ...(changing ? { oldPaymentPassword: form.current } : { loginPassword: form.current }),
          paymentPassword: form.paymentPassword,
          confirmPaymentPassword: form.confirmPaymentPassword,
        },
      });
      toast(changing ? t('web.settings.paymentPasswordChanged') : t('web.settings.paymentPasswordSet'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      setBusy(false);
      if (isSessionError(error)) return;
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      if (error.message === errorCatalogue.WRONG_LOGIN_PASSWORD.msg || error.message === errorCatalogue.WRONG_PAYMENT_PASSWORD.msg) {
        setProblems({ current: 'invalid' });
      }
      // Wrong tries left and the lock (ADR 0018) as they are now.
      reload();
      const lockedUntil = (error.data as { until?: unknown } | null)?.until;
      if (error.message === errorCatalogue.PAYMENT_PASSWORD_LOCKED.msg && typeof lockedUntil === 'string') {
        return setFormError(t('web.paymentPassword.lockedUntil', { time: formatDateTime(lockedUntil) }));
      }
      const seconds = error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      setFormError(seconds ? t('web.auth.tryAgainIn', { seconds }) : tServer(error.message));
    }
  }

  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.settings.paymentPassword')} backTo="/person/setting" />
      {failed && <LoadFailedNotice onRetry={reload} />}
      {overview && (
        <form className="card" onSubmit={submit} noValidate data-testid={changing ? 'paypassword-change' : 'paypassword-set'}>
          <p className="muted">{changing ? t('web.settings.paymentPasswordChangeIntro') : t('web.settings.paymentPasswordSetIntro')}</p>
          <PaymentPasswordLockNotice lock={overview.paymentPasswordLock} />
          {formError && (
            <Notice tone="error" testId="form-error">
              {formError}
            </Notice>
          )}
          {changing ? (
            <TextField
              label={t('web.settings.oldPaymentPassword')}
              name="oldPaymentPassword"
              type="password"
              inputMode="numeric"
              autoComplete="off"
              value={form.current}
              maxLength={6}
              onChange={(event) => set('current', digitsOnly(event.target.value))}
              error={problems.current === 'invalid' ? tServer(errorCatalogue.WRONG_PAYMENT_PASSWORD.msg) : problemText(i18n, problems.current)}
            />
          ) : (
            <TextField
              label={t('web.settings.loginPasswordToConfirm')}
              name="loginPassword"
              type="password"
              autoComplete="current-password"
              value={form.current}
              maxLength={128}
              onChange={(event) => set('current', event.target.value)}
              error={problems.current === 'invalid' ? tServer(errorCatalogue.WRONG_LOGIN_PASSWORD.msg) : problemText(i18n, problems.current)}
            />
          )}
          <TextField
            label={t('web.settings.newPaymentPassword')}
            name="paymentPassword"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            hint={t('web.settings.sixDigitsHint')}
            value={form.paymentPassword}
            maxLength={6}
            onChange={(event) => set('paymentPassword', digitsOnly(event.target.value))}
            error={problemText(i18n, problems.paymentPassword)}
          />
          <TextField
            label={t('web.settings.confirmPaymentPassword')}
            name="confirmPaymentPassword"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={form.confirmPaymentPassword}
            maxLength={6}
            onChange={(event) => set('confirmPaymentPassword', digitsOnly(event.target.value))}
            error={problemText(i18n, problems.confirmPaymentPassword)}
          />
          <Button type="submit" block busy={busy} data-testid="paypassword-submit">
            {t('web.settings.save')}
          </Button>
        </form>
      )}
    </div>
  );
}

/**
 * The published lock rule (ADR 0018) and where the user stands: wrong tries left, or until when it
 * is locked. Changing the payment password counts as a try too.
 */
function PaymentPasswordLockNotice({ lock }: { lock: SecurityOverview['paymentPasswordLock'] }) {
  const { t } = useI18n();
  const locked = lock.lockedUntil !== null && Date.parse(lock.lockedUntil) > Date.now();
  return (
    <Notice tone={locked ? 'warning' : 'info'} testId="paypassword-lock">
      <p>{t('web.paymentPassword.rule', { max: lock.maxFailures, hours: lock.lockMinutes / 60 })}</p>
      {locked ? (
        <p data-testid="paypassword-locked-until">{t('web.paymentPassword.lockedUntil', { time: formatDateTime(lock.lockedUntil!) })}</p>
      ) : (
        lock.failuresLeft < lock.maxFailures && <p data-testid="paypassword-failures-left">{t('web.paymentPassword.failuresLeft', { left: lock.failuresLeft })}</p>
      )}
    </Notice>
  );
}
