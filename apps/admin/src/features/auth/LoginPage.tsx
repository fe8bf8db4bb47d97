import { staffLoginContract, staffMeContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { staffToken } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { bodyOf, emptyAsUndefined, FieldErrorText, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { LanguageSelect } from '../../shared/LanguageSelect.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { codeDigits, TotpCodeField } from './TotpCodeField.tsx';

/**
 * Staff login, shown in place of any view while there is no staff session: the URL stays, so
 * after logging in the member is on the page the link named.
 */
export function LoginPage() {
  const { t } = useI18n();
  const client = useQueryClient();
  const login = useContractMutation(staffLoginContract, {
    onSuccess: (data) => {
      // The answer names the member: the shell needs no second call before drawing the view.
      client.setQueryData(contractKey(staffMeContract, {}), data.staff);
      staffToken.set(data.token);
    },
  });
  const form = useContractForm(bodyOf(staffLoginContract), { defaultValues: { username: '', password: '' } });
  const { errors } = form.formState;
  // Staff with an authenticator send its code; the first login (one-time password) has none yet.
  const submit = form.handleSubmit((body) => login.mutate({ body }));

  return (
    <main className="login">
      <form className="card" onSubmit={submit} noValidate>
        <h1>{t('admin.login.title')}</h1>
        <label>
          {t('admin.login.username')}
          <input autoComplete="username" required aria-describedby="username-error" {...form.register('username')} />
        </label>
        <FieldErrorText error={errors.username} id="username-error" />
        <label>
          {t('admin.login.password')}
          <input type="password" autoComplete="current-password" required aria-describedby="password-error" {...form.register('password')} />
        </label>
        <FieldErrorText error={errors.password} id="password-error" />
        <TotpCodeField
          field={form.register('totpCode', { setValueAs: (value: unknown) => emptyAsUndefined(codeDigits(value)) })}
          describedBy="totp-hint totp-error"
        />
        <p id="totp-hint" className="muted hint">
          {t('admin.login.totpHint')}
        </p>
        <FieldErrorText error={errors.totpCode} id="totp-error" />
        <ErrorAlert error={login.error} />
        <button type="submit" disabled={login.isPending}>
          {t('admin.login.submit')}
        </button>
        <LanguageSelect />
      </form>
    </main>
  );
}
