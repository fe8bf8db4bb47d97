import { enableStaffTotpContract, startStaffTotpContract, type StaffRole } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { LanguageSelect } from '../../shared/LanguageSelect.tsx';
import { QrCode } from '@keel/ui';
import { PasswordForm } from './PasswordForm.tsx';

type SetupStaff = { username: string; roles: StaffRole[]; setupStep: 'set_password' | 'enrol_totp' | null; oneTimePasswordExpiresAt: string | null };

/** The secret in groups of four, as authenticator apps show it when typed by hand. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The first-login steps (ADR 0020), before any other page: a member with a one-time password sets
 * their own, then every member enrols an authenticator (QR code or the key typed by hand, then a
 * current code). The server refuses every other staff call until both are done.
 */
export function FirstLoginPage({ staff, onStepDone, onLogout }: { staff: SetupStaff; onStepDone: () => void; onLogout: () => void }) {
  const { t } = useI18n();
  return (
    <main className="login">
      <section className="card setup" aria-labelledby="setup-title" data-testid="first-login">
        <h1 id="setup-title">{t('admin.firstLogin.title')}</h1>
        <p className="muted">{t('admin.firstLogin.intro', { username: staff.username })}</p>
        <ol className="steps">
          <li aria-current={staff.setupStep === 'set_password' ? 'step' : undefined}>{t('admin.firstLogin.step.password')}</li>
          <li aria-current={staff.setupStep === 'enrol_totp' ? 'step' : undefined}>{t('admin.firstLogin.step.totp')}</li>
        </ol>
        {staff.setupStep === 'set_password' && (
          <>
            {staff.oneTimePasswordExpiresAt && (
              <p className="notice">{t('admin.firstLogin.oneTimeExpires', { time: formatDateTime(staff.oneTimePasswordExpiresAt) })}</p>
            )}
            <PasswordForm currentLabel="admin.firstLogin.oneTimePassword" onDone={onStepDone} testId="set-password" />
          </>
        )}
        {staff.setupStep === 'enrol_totp' && <TotpEnrolment onDone={onStepDone} />}
        <div className="row spread">
          <LanguageSelect />
          <button type="button" className="secondary" onClick={onLogout}>
            {t('admin.logout')}
          </button>
        </div>
      </section>
    </main>
  );
}

function TotpEnrolment({ onDone }: { onDone: () => void }) {
  const { t, describeError } = useI18n();
  const [setup, setSetup] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      setSetup(await api(startStaffTotpContract));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api(enableStaffTotpContract, { body: { code: code.trim() } });
      onDone();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  if (!setup) {
    return (
      <div className="detail">
        <p>{t('admin.firstLogin.totpIntro')}</p>
        <ErrorAlert message={error} />
        <button type="button" onClick={() => void start()} disabled={busy}>
          {t('admin.firstLogin.totpStart')}
        </button>
      </div>
    );
  }
  return (
    <form className="detail" onSubmit={confirm} data-testid="totp-enrolment">
      <p>{t('admin.firstLogin.totpScan')}</p>
      <div className="qr-box">
        <QrCode text={setup.otpauthUri} label={t('admin.firstLogin.totpQrLabel')} />
      </div>
      <p className="muted">{t('admin.firstLogin.totpKey')}</p>
      <p className="secret" data-testid="totp-secret" data-secret={setup.secret}>
        <code>{groupSecret(setup.secret)}</code>
      </p>
      <label>
        {t('admin.login.totpCode')}
        <input
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          required
        />
      </label>
      <ErrorAlert message={error} />
      <button type="submit" disabled={busy || code.length !== 6}>
        {t('admin.firstLogin.totpConfirm')}
      </button>
    </form>
  );
}
