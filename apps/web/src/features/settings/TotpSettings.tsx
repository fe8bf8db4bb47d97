import { ApiError, disableTotpContract, enableTotpContract, errorCatalogue, startTotpSetupContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { codeProblem, retryAfterSeconds } from '../auth/contact-validation.ts';
import { problemText } from '../auth/problems.ts';
import type { FieldProblem } from '../auth/validation.ts';
import { useSecurity } from './useSecurity.ts';
import { QrCode } from '@keel/ui';

/** The secret in groups of four, as authenticator apps show it when typed by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * /safeSetting/totp: two-step login with an authenticator app (RFC 6238). Setting up shows a
 * secret (and an otpauth:// link that opens the app on a phone); a current code confirms it.
 * Turning it off needs the login password and a code.
 */
export function TotpSettings() {
  const i18n = useI18n();
  const { t, tServer } = i18n;
  const toast = useToast();
  const { overview, failed, reload } = useSecurity();
  const [setup, setSetup] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ code?: FieldProblem; password?: FieldProblem }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function fail(error: unknown) {
    if (isSessionError(error)) return;
    if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
    if (error.message === errorCatalogue.WRONG_VERIFICATION_CODE.msg) setProblems({ code: 'invalid' });
    if (error.message === errorCatalogue.WRONG_LOGIN_PASSWORD.msg) setProblems({ password: 'invalid' });
    const seconds = error.code === 429 ? retryAfterSeconds(error.data) : undefined;
    setFormError(seconds ? t('web.auth.tryAgainIn', { seconds }) : tServer(error.message));
  }

  async function start() {
    setBusy(true);
    setFormError(null);
    try {
      setSetup(await api(startTotpSetupContract));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function enable(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const problem = codeProblem(code);
    setProblems({ code: problem });
    if (problem) return;
    setBusy(true);
    try {
      await api(enableTotpContract, { body: { code: code.trim() } });
      toast(t('web.settings.totpEnabled'));
      setSetup(null);
      setCode('');
      reload();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function disable(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = { password: password === '' ? ('required' as const) : undefined, code: codeProblem(code) };
    setProblems(found);
    if (found.password || found.code) return;
    setBusy(true);
    try {
      await api(disableTotpContract, { body: { password, code: code.trim() } });
      toast(t('web.settings.totpDisabled'));
      setPassword('');
      setCode('');
      reload();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  const codeError = problems.code === 'invalid' ? tServer(errorCatalogue.WRONG_VERIFICATION_CODE.msg) : problemText(i18n, problems.code);
  const errorNotice = formError && (
    <Notice tone="error" testId="form-error">
      {formError}
    </Notice>
  );
  const codeField = (
    <TextField
      label={t('web.auth.totpCode')}
      name="totp"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={code}
      maxLength={6}
      onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
      error={codeError}
    />
  );

  if (failed) return <LoadFailedNotice onRetry={reload} />;
  if (!overview) return <p className="muted">{t('web.common.loading')}</p>;
  if (overview.totpEnabled) {
    return (
      <form className="card" onSubmit={disable} noValidate data-testid="totp-on">
        <Notice title={t('web.settings.totpIsOn')}>{t('web.settings.totpOnBody')}</Notice>
        {errorNotice}
        <TextField
          label={t('web.settings.loginPasswordToConfirm')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          maxLength={128}
          onChange={(event) => setPassword(event.target.value)}
          error={problems.password === 'invalid' ? tServer(errorCatalogue.WRONG_LOGIN_PASSWORD.msg) : problemText(i18n, problems.password)}
        />
        {codeField}
        <Button type="submit" variant="danger" block busy={busy} data-testid="totp-disable">
          {t('web.settings.totpTurnOff')}
        </Button>
      </form>
    );
  }
  if (!setup) {
    return (
      <div className="card" data-testid="totp-off">
        <p>{t('web.settings.totpIntro')}</p>
        {errorNotice}
        <Button block busy={busy} onClick={() => void start()} data-testid="totp-start">
          {t('web.settings.totpSetUp')}
        </Button>
      </div>
    );
  }
  return (
    <form className="card" onSubmit={enable} noValidate data-testid="totp-setup">
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
      {errorNotice}
      {codeField}
      <Button type="submit" block busy={busy} data-testid="totp-enable">
        {t('web.settings.totpConfirm')}
      </Button>
    </form>
  );
}
