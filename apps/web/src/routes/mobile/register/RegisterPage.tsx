import { ApiError, errorCatalogue, registerContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../shared/api/client.ts';
import { FAIL400, safeRedirect } from '../../../shared/api/redirect.ts';
import { useLoggedIn } from '../../../shared/api/session.ts';
import { AuthHeader } from '../../../features/auth/AuthHeader.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../../shared/ui/components.tsx';
import { AgreementCheckbox } from '../../../features/auth/AgreementCheckbox.tsx';
import { finishLogin } from '../../../features/auth/finish-login.ts';
import { problemText } from '../../../features/auth/problems.ts';
import { type FieldProblems, type RegistrationField, problemsFromServer, validateRegistration } from '../../../features/auth/validation.ts';

const registrationFields = ['username', 'password', 'confirmPassword', 'inviteCode', 'agreement'] as const;

/** Registration by username (spec sections 2 and 5); the server's answer is the authority. */
export function RegisterPage() {
  const i18n = useI18n();
  const { t, tServer, locale, adoptLocale } = i18n;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const redirect = params.get('redirect');
  const [form, setForm] = useState({ username: '', password: '', confirmPassword: '', inviteCode: '', agreement: false });
  const [problems, setProblems] = useState<FieldProblems<RegistrationField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (loggedIn && !busy) return <Navigate to={safeRedirect(redirect)} replace />;

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = validateRegistration(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const inviteCode = form.inviteCode.trim();
      const answer = await api(registerContract, {
        body: {
          username: form.username.trim(),
          password: form.password,
          confirmPassword: form.confirmPassword,
          agreement: true,
          inviteCode: inviteCode === '' ? undefined : inviteCode,
          language: locale,
        },
      });
      finishLogin(answer, adoptLocale);
      navigate(safeRedirect(redirect), { replace: true });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      const fromServer = problemsFromServer(error.data, registrationFields);
      setProblems(fromServer);
      if (error.message === errorCatalogue.INVALID_INVITATION_CODE.msg) setProblems({ inviteCode: 'invalid' });
      setFormError(tServer(error.message));
    }
  }

  return (
    <div className="auth-page">
      <AuthHeader logoSize={48} />
      <form className="auth-card" onSubmit={submit} noValidate>
        <h1>{t('web.register.title')}</h1>
        <p className="muted">{t('web.register.subtitle')}</p>
        {formError && (
          <Notice tone="error" testId="form-error">
            {formError}
          </Notice>
        )}
        <TextField
          label={t('web.register.username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint={t('web.register.usernameHint')}
          value={form.username}
          maxLength={32}
          onChange={(event) => set('username', event.target.value)}
          error={problemText(i18n, problems.username)}
        />
        <TextField
          label={t('web.register.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          hint={t('web.register.passwordHint')}
          value={form.password}
          maxLength={128}
          onChange={(event) => set('password', event.target.value)}
          error={problemText(i18n, problems.password)}
        />
        <TextField
          label={t('web.register.confirmPassword')}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          placeholder={t('web.register.confirmPasswordPlaceholder')}
          value={form.confirmPassword}
          maxLength={128}
          onChange={(event) => set('confirmPassword', event.target.value)}
          error={problemText(i18n, problems.confirmPassword)}
        />
        <TextField
          label={t('web.register.inviteCode')}
          name="inviteCode"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={t('web.register.inviteCodePlaceholder')}
          value={form.inviteCode}
          maxLength={16}
          onChange={(event) => set('inviteCode', event.target.value)}
          error={problems.inviteCode === 'invalid' ? tServer(errorCatalogue.INVALID_INVITATION_CODE.msg) : problemText(i18n, problems.inviteCode)}
        />
        <AgreementCheckbox checked={form.agreement} onChange={(value) => set('agreement', value)} error={problemText(i18n, problems.agreement)} />
        <Button type="submit" block busy={busy} data-testid="register-submit">
          {t('web.register.submit')}
        </Button>
        <p className="auth-switch">
          {t('web.register.haveAccount')}{' '}
          <Link to={redirect && redirect !== FAIL400 ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'}>{t('web.register.loginLink')}</Link>
        </p>
      </form>
    </div>
  );
}
