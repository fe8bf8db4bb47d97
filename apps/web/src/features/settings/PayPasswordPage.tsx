import { ApiError, type ContractData, errorCatalogue, securityOverviewContract, setPaymentPasswordContract, validationMessages } from '@keel/contracts';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { applyRefusal, bodySchema, FormError, mustMatch, setFormNotice, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, PageHeader, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { retryAfterSeconds } from '../auth/code-wait.ts';
import '../auth/auth.css';

type PaymentPasswordLock = ContractData<typeof securityOverviewContract>['paymentPasswordLock'];

const fields = bodySchema(setPaymentPasswordContract);

/**
 * The contract's new payment password twice, and `current`: the login password to set it the
 * first time, or the current payment password to change it.
 */
function paymentPasswordSchema(changing: boolean) {
  const current = (changing ? fields.shape.oldPaymentPassword : fields.shape.loginPassword).unwrap().min(1, validationMessages.required);
  return mustMatch(fields.pick({ paymentPassword: true, confirmPaymentPassword: true }).extend({ current }), 'paymentPassword', 'confirmPaymentPassword');
}

/**
 * /person/setting/paypassword: the payment password (six digits, separate from the login
 * password). Set the first time with the login password; changed later with the old one.
 */
export function PayPasswordPage() {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const security = useContractQuery(securityOverviewContract);
  const overview = security.data;
  const changing = overview?.paymentPasswordSet === true;
  const schema = useMemo(() => paymentPasswordSchema(changing), [changing]);
  const form = useContractForm(schema, { defaultValues: { current: '', paymentPassword: '', confirmPaymentPassword: '' } });
  const field = useFieldProps(form);
  const save = useContractMutation(setPaymentPasswordContract, { invalidates: [securityOverviewContract] });

  const submit = form.handleSubmit(async ({ current, ...rest }) => {
    try {
      await save.mutateAsync({ body: { ...(changing ? { oldPaymentPassword: current } : { loginPassword: current }), ...rest } });
      toast(changing ? t('web.settings.paymentPasswordChanged') : t('web.settings.paymentPasswordSet'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      // Wrong tries left and the lock (ADR 0018) as they are now.
      void security.refetch();
      const lockedUntil = error instanceof ApiError ? (error.data as { until?: unknown } | null)?.until : undefined;
      const seconds = error instanceof ApiError && error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      if (error instanceof ApiError && error.message === errorCatalogue.PAYMENT_PASSWORD_LOCKED.msg && typeof lockedUntil === 'string') {
        setFormNotice(form, t('web.paymentPassword.lockedUntil', { time: formatDateTime(lockedUntil) }));
      } else if (seconds) {
        setFormNotice(form, t('web.auth.tryAgainIn', { seconds }));
      } else {
        applyRefusal(form, error);
      }
    }
  });

  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.settings.paymentPassword')} backTo="/person/setting" />
      {loadFailed(security) && <LoadFailedNotice onRetry={() => void security.refetch()} />}
      {overview && (
        <form className="card" onSubmit={submit} noValidate data-testid={changing ? 'paypassword-change' : 'paypassword-set'}>
          <p className="muted">{changing ? t('web.settings.paymentPasswordChangeIntro') : t('web.settings.paymentPasswordSetIntro')}</p>
          <PaymentPasswordLockNotice lock={overview.paymentPasswordLock} />
          <FormError form={form} />
          {changing ? (
            <TextField
              label={t('web.settings.oldPaymentPassword')}
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              {...field('current')}
            />
          ) : (
            <TextField
              label={t('web.settings.loginPasswordToConfirm')}
              type="password"
              autoComplete="current-password"
              maxLength={128}
              {...field('current')}
            />
          )}
          <TextField
            label={t('web.settings.newPaymentPassword')}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            hint={t('web.settings.sixDigitsHint')}
            maxLength={6}
            {...field('paymentPassword')}
          />
          <TextField
            label={t('web.settings.confirmPaymentPassword')}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            {...field('confirmPaymentPassword')}
          />
          <Button type="submit" block busy={form.formState.isSubmitting} data-testid="paypassword-submit">
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
function PaymentPasswordLockNotice({ lock }: { lock: PaymentPasswordLock }) {
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
