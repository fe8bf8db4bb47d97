import { enableStaffTotpContract, staffMeContract, startStaffTotpContract, type StaffRole } from '@keel/contracts';
import { QrCode } from '@keel/ui';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, FieldErrorText, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { LanguageSelect } from '../../shared/LanguageSelect.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { PasswordForm } from './PasswordForm.tsx';
import { codeDigits, TotpCodeField } from './TotpCodeField.tsx';

type SetupStaff = { username: string; roles: StaffRole[]; setupStep: 'set_password' | 'enrol_totp' | null; oneTimePasswordExpiresAt: string | null };

/** The secret in groups of four, as authenticator apps show it when typed by hand. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The first-login steps (ADR 0020), before any other page: a member with a one-time password sets
 * their own, then every member enrols an authenticator (QR code or the key typed by hand, then a
 * current code). The server refuses every other staff call until both are done. Each step, once
 * taken, reads the member again (`GET /home/admin/me`), which shows the next one.
 */
export function FirstLoginPage({ staff, onLogout }: { staff: SetupStaff; onLogout: () => void }) {
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
            <PasswordForm currentLabel="admin.firstLogin.oneTimePassword" testId="set-password" />
          </>
        )}
        {staff.setupStep === 'enrol_totp' && <TotpEnrolment />}
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

function TotpEnrolment() {
  const { t } = useI18n();
  const start = useContractMutation(startStaffTotpContract);
  // Enrolled: the first-login step is read again, and the shell shows the member's views.
  const enable = useContractMutation(enableStaffTotpContract, { invalidates: [staffMeContract] });
  const form = useContractForm(bodyOf(enableStaffTotpContract), { defaultValues: { code: '' } });
  const { errors } = form.formState;
  const code = form.watch('code');
  const submit = form.handleSubmit((body) => enable.mutate({ body }));
  const setup = start.data;

  if (!setup) {
    return (
      <div className="detail">
        <p>{t('admin.firstLogin.totpIntro')}</p>
        <ErrorAlert error={start.error} />
        <button type="button" onClick={() => start.mutate({})} disabled={start.isPending}>
          {t('admin.firstLogin.totpStart')}
        </button>
      </div>
    );
  }
  return (
    <form className="detail" onSubmit={submit} noValidate data-testid="totp-enrolment">
      <p>{t('admin.firstLogin.totpScan')}</p>
      <div className="qr-box">
        <QrCode text={setup.otpauthUri} label={t('admin.firstLogin.totpQrLabel')} />
      </div>
      <p className="muted">{t('admin.firstLogin.totpKey')}</p>
      <p className="secret" data-testid="totp-secret" data-secret={setup.secret}>
        <code>{groupSecret(setup.secret)}</code>
      </p>
      <TotpCodeField field={form.register('code', { setValueAs: codeDigits })} describedBy="totp-code-error" required />
      <FieldErrorText error={errors.code} id="totp-code-error" />
      <ErrorAlert error={enable.error} />
      <button type="submit" disabled={enable.isPending || codeDigits(code).length !== 6}>
        {t('admin.firstLogin.totpConfirm')}
      </button>
    </form>
  );
}
