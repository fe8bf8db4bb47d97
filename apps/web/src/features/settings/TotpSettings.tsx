import {
  ApiError,
  disableTotpContract,
  enableTotpContract,
  securityOverviewContract,
  startTotpSetupContract,
  validationMessages,
} from '@keel/contracts';
import { QrCode } from '@keel/ui';
import { useState } from 'react';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, type FormOf, setFormNotice, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { retryAfterSeconds } from '../auth/code-wait.ts';
import { requiredCodeSchema } from '../auth/contact-schemas.ts';
import { groupSecret } from './settings-helpers.ts';

const enableSchema = bodySchema(enableTotpContract).extend({ code: requiredCodeSchema });
const disableFields = bodySchema(disableTotpContract);
const disableSchema = disableFields.extend({ password: disableFields.shape.password.min(1, validationMessages.required), code: requiredCodeSchema });

/** A refused code or password: the wait of a 429, or the refusal on the form. */
function showRefusal<T extends { code: string }>(form: FormOf<T>, error: unknown, t: ReturnType<typeof useI18n>['t']) {
  const seconds = error instanceof ApiError && error.code === 429 ? retryAfterSeconds(error.data) : undefined;
  if (seconds) setFormNotice(form, t('web.auth.tryAgainIn', { seconds }));
  else applyRefusal(form, error);
}

function CodeField<T extends { code: string }>({ form }: { form: FormOf<T> }) {
  const { t } = useI18n();
  const field = useFieldProps(form as unknown as FormOf<{ code: string }>);
  return <TextField label={t('web.auth.totpCode')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...field('code')} />;
}

/**
 * /safeSetting/totp: two-step login with an authenticator app (RFC 6238). Setting up shows a
 * secret (and an otpauth:// link that opens the app on a phone); a current code confirms it.
 * Turning it off needs the login password and a code.
 */
export function TotpSettings() {
  const { t, tServer } = useI18n();
  const security = useContractQuery(securityOverviewContract);
  const [setup, setSetup] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const start = useContractMutation(startTotpSetupContract, { onSuccess: setSetup });

  if (loadFailed(security)) return <LoadFailedNotice onRetry={() => void security.refetch()} />;
  if (!security.data) return <p className="muted">{t('web.common.loading')}</p>;
  if (security.data.totpEnabled) return <TurnOffForm />;
  if (!setup) {
    return (
      <div className="card" data-testid="totp-off">
        <p>{t('web.settings.totpIntro')}</p>
        {start.isError && !isSessionError(start.error) && (
          <Notice tone="error" testId="form-error">
            {start.error instanceof ApiError ? tServer(start.error.message) : t('web.common.loadFailed')}
          </Notice>
        )}
        <Button block busy={start.isPending} onClick={() => start.mutate({})} data-testid="totp-start">
          {t('web.settings.totpSetUp')}
        </Button>
      </div>
    );
  }
  return <ConfirmSetupForm setup={setup} onDone={() => setSetup(null)} />;
}

/** The new secret as a QR code and as text, and a current code to confirm it. */
function ConfirmSetupForm({ setup, onDone }: { setup: { secret: string; otpauthUri: string }; onDone: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const form = useContractForm(enableSchema, { defaultValues: { code: '' } });
  const enable = useContractMutation(enableTotpContract, { invalidates: [securityOverviewContract] });

  const submit = form.handleSubmit(async (body) => {
    try {
      await enable.mutateAsync({ body });
      toast(t('web.settings.totpEnabled'));
      onDone();
    } catch (error) {
      showRefusal(form, error, t);
    }
  });

  return (
    <form className="card" onSubmit={submit} noValidate data-testid="totp-setup">
      <ol className="status-list">
        <li>{t('web.settings.totpStep1')}</li>
        <li>{t('web.settings.totpStep2')}</li>
      </ol>
      <div className="qr-box">
        <QrCode text={setup.otpauthUri} label={t('web.settings.totpQrLabel')} />
      </div>
      <p className="secret-box mono" data-testid="totp-secret" data-secret={setup.secret}>
        {groupSecret(setup.secret)}
      </p>
      <a className="btn btn-secondary btn-block" href={setup.otpauthUri}>
        {t('web.settings.totpOpenApp')}
      </a>
      <p className="muted">{t('web.settings.totpStep3')}</p>
      <FormError form={form} />
      <CodeField form={form} />
      <Button type="submit" block busy={form.formState.isSubmitting} data-testid="totp-enable">
        {t('web.settings.totpConfirm')}
      </Button>
    </form>
  );
}

/** Two-step login is on: turning it off takes the login password and a current code. */
function TurnOffForm() {
  const { t } = useI18n();
  const toast = useToast();
  const form = useContractForm(disableSchema, { defaultValues: { password: '', code: '' } });
  const field = useFieldProps(form);
  const disable = useContractMutation(disableTotpContract, { invalidates: [securityOverviewContract] });

  const submit = form.handleSubmit(async (body) => {
    try {
      await disable.mutateAsync({ body });
      toast(t('web.settings.totpDisabled'));
    } catch (error) {
      showRefusal(form, error, t);
    }
  });

  return (
    <form className="card" onSubmit={submit} noValidate data-testid="totp-on">
      <Notice title={t('web.settings.totpIsOn')}>{t('web.settings.totpOnBody')}</Notice>
      <FormError form={form} />
      <TextField label={t('web.settings.loginPasswordToConfirm')} type="password" autoComplete="current-password" maxLength={128} {...field('password')} />
      <CodeField form={form} />
      <Button type="submit" variant="danger" block busy={form.formState.isSubmitting} data-testid="totp-disable">
        {t('web.settings.totpTurnOff')}
      </Button>
    </form>
  );
}
