import { ApiError, changeLoginPasswordContract, securityOverviewContract, validationMessages } from '@keel/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { applyRefusal, bodySchema, FormError, mustMatch, setFormNotice, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, Notice, PageHeader, TextField } from '../../shared/ui/components.tsx';
import { retryAfterSeconds } from '../auth/code-wait.ts';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import '../auth/auth.css';

const fields = bodySchema(changeLoginPasswordContract);
const schema = mustMatch(fields.extend({ oldPassword: fields.shape.oldPassword.min(1, validationMessages.required) }), 'password', 'confirmPassword');

/**
 * /person/setting/changepassword: the current password, the new one twice. Afterwards every other
 * session has ended and withdrawals are locked for 24 h (a published rule); the page says both,
 * with the time the lock ends as the server states it (the security overview, refetched by the change).
 */
export function ChangePasswordPage() {
  const { t } = useI18n();
  const form = useContractForm(schema, { defaultValues: { oldPassword: '', password: '', confirmPassword: '' } });
  const field = useFieldProps(form);
  const security = useContractQuery(securityOverviewContract);
  const change = useContractMutation(changeLoginPasswordContract, { invalidates: [securityOverviewContract] });
  const [done, setDone] = useState(false);

  const submit = form.handleSubmit(async (body) => {
    try {
      await change.mutateAsync({ body });
      setDone(true);
    } catch (error) {
      const seconds = error instanceof ApiError && error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      if (seconds) setFormNotice(form, t('web.auth.tryAgainIn', { seconds }));
      else applyRefusal(form, error);
    }
  });

  const lockedUntil = security.data?.withdrawalsLockedUntil ?? null;
  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.settings.changePasswordTitle')} backTo="/person/setting" />
      {done ? (
        <Card>
          <Notice title={t('web.settings.passwordChanged')} testId="password-changed">
            <p>{t('web.settings.otherSessionsEnded')}</p>
            <p data-testid="withdrawal-lock-until">
              {lockedUntil ? t('web.settings.withdrawalsLockedUntil', { time: formatDateTime(lockedUntil) }) : t('web.settings.withdrawalsLocked24h')}
            </p>
          </Notice>
          <Link to="/person/setting" className="btn btn-secondary btn-block">
            {t('web.settings.backToSettings')}
          </Link>
        </Card>
      ) : (
        <form className="card" onSubmit={submit} noValidate>
          <Notice tone="warning">{t('web.settings.changePasswordWarning')}</Notice>
          <FormError form={form} />
          <TextField label={t('web.settings.oldPassword')} type="password" autoComplete="current-password" maxLength={128} {...field('oldPassword')} />
          <NewPasswordFields form={form} />
          <Button type="submit" block busy={form.formState.isSubmitting} data-testid="change-password-submit">
            {t('web.settings.save')}
          </Button>
        </form>
      )}
    </div>
  );
}
