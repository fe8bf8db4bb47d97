import { ApiError, errorCatalogue, loginContract } from '@keel/contracts';
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
import { type FieldProblems, problemsFromServer, validateLogin } from '../../../features/auth/validation.ts';

type LoginField = 'account' | 'password' | 'agreement';
const loginFields = ['account', 'password', 'agreement'] as const;

/** The username login form, used by /login and /loginaccount (spec section 2). */
export function LoginPage() {
  const i18n = useI18n();
  const { t, tServer, adoptLocale } = i18n;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const redirect = params.get('redirect');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [agreement, setAgreement] = useState(false);
  const [problems, setProblems] = useState<FieldProblems<LoginField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A logged-in user has nothing to do here; after submitting, the navigation below takes over.
  if (loggedIn && !busy) return <Navigate to={safeRedirect(redirect)} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const check = validateLogin({ account, password, agreement });
    setProblems({ agreement: check.agreement });
    setFormError(check.empty ? tServer(errorCatalogue.ACCOUNT_AND_PASSWORD_EMPTY.msg) : null);
    if (check.empty || check.agreement) return;
    setBusy(true);
    try {
      const answer = await api(loginContract, { body: { account: account.trim(), password, agreement: true } });
      finishLogin(answer, adoptLocale);
      navigate(safeRedirect(redirect), { replace: true });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      setProblems(problemsFromServer(error.data, loginFields));
      setFormError(tServer(error.message));
    }
  }

  return (
    <div className="auth-page">
      <AuthHeader logoSize={56} withTagline />
      <form className="auth-card" onSubmit={submit} noValidate>
        <h1>{t('web.login.title')}</h1>
        <p className="muted">{t('web.login.subtitle')}</p>
        {redirect === FAIL400 && (
          <Notice tone="warning" title={t('web.login.fail400Title')} testId="fail400-notice">
            {t('web.login.fail400Body')}
          </Notice>
        )}
        {formError && (
          <Notice tone="error" testId="form-error">
            {formError}
          </Notice>
        )}
        <TextField
          label={t('web.login.account')}
          name="account"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t('web.login.accountPlaceholder')}
          value={account}
          maxLength={64}
          onChange={(event) => setAccount(event.target.value)}
          error={problemText(i18n, problems.account)}
        />
        <TextField
          label={t('web.login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          placeholder={t('web.login.passwordPlaceholder')}
          value={password}
          maxLength={128}
          onChange={(event) => setPassword(event.target.value)}
          error={problemText(i18n, problems.password)}
        />
        <div className="auth-row-end">
          <Link to="/forget">{t('web.login.forgot')}</Link>
        </div>
        <AgreementCheckbox checked={agreement} onChange={setAgreement} error={problemText(i18n, problems.agreement)} />
        <Button type="submit" block busy={busy} data-testid="login-submit">
          {t('web.login.submit')}
        </Button>
        <p className="auth-switch">
          {t('web.login.noAccount')}{' '}
          <Link to={redirect && redirect !== FAIL400 ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}>
            {t('web.login.registerLink')}
          </Link>
        </p>
      </form>
    </div>
  );
}
