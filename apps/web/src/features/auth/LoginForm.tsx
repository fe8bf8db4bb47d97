import { ApiError, errorCatalogue, loginContract, validationMessages } from '@keel/contracts';
import { useMemo, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useContractMutation } from '../../shared/api/queries.ts';
import { onSiteOf } from '../../app/desktop-paths.ts';
import { FAIL400, safeRedirect } from '../../shared/api/redirect.ts';
import { useLoggedIn } from '../../shared/api/session.ts';
import { applyRefusal, bodySchema, FormError, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { WalletLoginButton } from '../wallet-connect/WalletLoginButton.tsx';
import { AgreementCheckbox } from './AgreementCheckbox.tsx';
import { AuthHeader } from './AuthHeader.tsx';
import { retryAfterSeconds } from './code-wait.ts';
import { finishLogin } from './finish-login.ts';
import { useCountdown } from './useCountdown.ts';
import { WaitNotice } from './WaitNotice.tsx';
import './auth.css';

const loginSchema = bodySchema(loginContract);
/** Once the server asked for it, the authenticator code is required too. */
const loginWithCodeSchema = loginSchema.extend({ totp: loginSchema.shape.totp.unwrap().min(1, validationMessages.required) });

/** What /forget leaves in the navigation state when a password was reset. */
export interface LoginNoticeState {
  passwordReset?: boolean;
}

/**
 * /login and /loginaccount: one account field for a username, an e-mail address or a phone number
 * (spec section 2). Repeated failures are answered 429 with `retryAfterSeconds`: the form counts
 * the wait down and stays closed until it is over. An account with two-step login is asked for the
 * authenticator code after its password was accepted ("two-step code required"). An empty account
 * or password is the server's to refuse ("account and password cannot be empty").
 */
export function LoginForm() {
  const { t, adoptLocale } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const redirect = params.get('redirect');
  // On the desktop site (ADR 0048) the links and the way home stay on it.
  const site = (path: string) => onSiteOf(location.pathname, path);
  const passwordReset = (location.state as LoginNoticeState | null)?.passwordReset === true;
  const [needsTotp, setNeedsTotp] = useState(false);
  const schema = useMemo(() => (needsTotp ? loginWithCodeSchema : loginSchema), [needsTotp]);
  const form = useContractForm(schema, { defaultValues: { account: '', password: '', totp: '' } });
  const field = useFieldProps(form);
  const login = useContractMutation(loginContract);
  const wait = useCountdown();
  const busy = form.formState.isSubmitting;

  // A logged-in user has nothing to do here; after submitting, the navigation below takes over.
  if (loggedIn && !busy) return <Navigate to={safeRedirect(redirect, site('/index'))} replace />;

  const submit = form.handleSubmit(async (values) => {
    if (wait.seconds > 0) return;
    try {
      const answer = await login.mutateAsync({
        body: { account: values.account, password: values.password, agreement: values.agreement, totp: needsTotp ? values.totp : undefined },
      });
      finishLogin(answer, adoptLocale);
      navigate(safeRedirect(redirect, site('/index')), { replace: true });
    } catch (error) {
      const refusal = error instanceof ApiError ? error.message : '';
      if (refusal === errorCatalogue.TWO_STEP_CODE_REQUIRED.msg) {
        setNeedsTotp(true);
        return;
      }
      const seconds = error instanceof ApiError && error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      if (seconds) {
        wait.start(seconds * 1000);
        return;
      }
      if (needsTotp && refusal === errorCatalogue.WRONG_VERIFICATION_CODE.msg) form.setValue('totp', '');
      applyRefusal(form, error);
    }
  });

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
        <FormError form={form} />
        <TextField
          label={t('web.auth.account')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t('web.auth.accountPlaceholder')}
          maxLength={64}
          {...field('account', { onChange: () => setNeedsTotp(false) })}
        />
        <TextField
          label={t('web.login.password')}
          type="password"
          autoComplete="current-password"
          placeholder={t('web.login.passwordPlaceholder')}
          maxLength={128}
          {...field('password')}
        />
        {needsTotp && (
          <TextField
            label={t('web.auth.totpCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            hint={t('web.auth.totpHint')}
            maxLength={6}
            {...field('totp')}
          />
        )}
        <div className="auth-row-end">
          <Link to={site('/forget')}>{t('web.login.forgot')}</Link>
        </div>
        <AgreementCheckbox {...field('agreement')} />
        <Button type="submit" block busy={busy} disabled={wait.seconds > 0} data-testid="login-submit">
          {t('web.login.submit')}
        </Button>
        <WalletLoginButton onLoggedIn={() => navigate(safeRedirect(redirect), { replace: true })} />
        <p className="auth-switch">
          {t('web.login.noAccount')}{' '}
          <Link to={redirect && redirect !== FAIL400 ? `${site('/register')}?redirect=${encodeURIComponent(redirect)}` : site('/register')}>
            {t('web.login.registerLink')}
          </Link>
        </p>
      </form>
    </div>
  );
}
