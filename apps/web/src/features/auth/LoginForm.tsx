import { ApiError, errorCatalogue, loginContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { FAIL400, safeRedirect } from '../../shared/api/redirect.ts';
import { useLoggedIn } from '../../shared/api/session.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { AgreementCheckbox } from './AgreementCheckbox.tsx';
import { AuthHeader } from './AuthHeader.tsx';
import { retryAfterSeconds } from './contact-validation.ts';
import { finishLogin } from './finish-login.ts';
import { problemText } from './problems.ts';
import { useCountdown } from './useCountdown.ts';
import { type FieldProblems, problemsFromServer, validateLogin } from './validation.ts';
import { WaitNotice } from './WaitNotice.tsx';
import './auth.css';

type LoginField = 'account' | 'password' | 'agreement' | 'totp';
const loginFields = ['account', 'password', 'agreement', 'totp'] as const;

/** What /forget leaves in the navigation state when a password was reset. */
export interface LoginNoticeState {
  passwordReset?: boolean;
}

/**
 * /login and /loginaccount: one account field for a username, an e-mail address or a phone number
 * (spec section 2). Repeated failures are answered 429 with `retryAfterSeconds`: the form counts
 * the wait down and stays closed until it is over. An account with two-step login is asked for the
 * authenticator code after its password was accepted ("two-step code required").
 */
export function LoginForm() {
  const i18n = useI18n();
  const { t, tServer, adoptLocale } = i18n;
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const redirect = params.get('redirect');
  const passwordReset = (location.state as LoginNoticeState | null)?.passwordReset === true;
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const [agreement, setAgreement] = useState(false);
  const [problems, setProblems] = useState<FieldProblems<LoginField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const wait = useCountdown();

  // A logged-in user has nothing to do here; after submitting, the navigation below takes over.
  if (loggedIn && !busy) return <Navigate to={safeRedirect(redirect)} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (wait.seconds > 0) return;
    const check = validateLogin({ account, password, agreement });
    const totpMissing = needsTotp && totp.trim() === '';
    setProblems({ agreement: check.agreement, totp: totpMissing ? 'required' : undefined });
    setFormError(check.empty ? tServer(errorCatalogue.ACCOUNT_AND_PASSWORD_EMPTY.msg) : null);
    if (check.empty || check.agreement || totpMissing) return;
    setBusy(true);
    try {
      const answer = await api(loginContract, {
        body: { account: account.trim(), password, agreement: true, totp: needsTotp ? totp.trim() : undefined },
      });
      finishLogin(answer, adoptLocale);
      navigate(safeRedirect(redirect), { replace: true });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      if (error.message === errorCatalogue.TWO_STEP_CODE_REQUIRED.msg) {
        setNeedsTotp(true);
        setProblems({});
        setFormError(null);
        return;
      }
      const seconds = error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      if (seconds) {
        wait.start(seconds * 1000);
        setFormError(null);
        return;
      }
      if (needsTotp && error.message === errorCatalogue.WRONG_VERIFICATION_CODE.msg) setTotp('');
      setProblems(problemsFromServer(error.data, loginFields));
      setFormError(tServer(error.message));
    }
  }

  return (
    <div className="auth-page">
      <AuthHeader logoSize={56} withTagline />
      <form className="auth-card" onSubmit={submit} noValidate>
        <h1>{t('web.login.title')}</h1>
        <p className="muted">{t('web.auth.loginSubtitle')}</p>
        {redirect === FAIL400 && (
          <Notice tone="warning" title={t('web.login.fail400Title')} testId="fail400-notice">
            {t('web.login.fail400Body')}
          </Notice>
        )}
        {passwordReset && <Notice testId="reset-notice">{t('web.auth.resetDone')}</Notice>}
        <WaitNotice seconds={wait.seconds} />
        {formError && (
          <Notice tone="error" testId="form-error">
            {formError}
          </Notice>
        )}
        <TextField
          label={t('web.auth.account')}
          name="account"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t('web.auth.accountPlaceholder')}
          value={account}
          maxLength={64}
          onChange={(event) => {
            setAccount(event.target.value);
            setNeedsTotp(false);
          }}
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
        {needsTotp && (
          <TextField
            label={t('web.auth.totpCode')}
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            hint={t('web.auth.totpHint')}
            value={totp}
            maxLength={6}
            onChange={(event) => setTotp(event.target.value.replace(/\D/g, ''))}
            error={problemText(i18n, problems.totp)}
          />
        )}
        <div className="auth-row-end">
          <Link to="/forget">{t('web.login.forgot')}</Link>
        </div>
        <AgreementCheckbox checked={agreement} onChange={setAgreement} error={problemText(i18n, problems.agreement)} />
        <Button type="submit" block busy={busy} disabled={wait.seconds > 0} data-testid="login-submit">
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
