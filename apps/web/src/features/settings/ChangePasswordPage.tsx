import { ApiError, changeLoginPasswordContract, errorCatalogue, securityOverviewContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, Notice, PageHeader, TextField } from '../../shared/ui/components.tsx';
import { confirmProblem, retryAfterSeconds } from '../auth/contact-validation.ts';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { problemText } from '../auth/problems.ts';
import { type FieldProblems, passwordProblem } from '../auth/validation.ts';
import '../auth/auth.css';

type Field = 'oldPassword' | 'password' | 'confirmPassword';

/**
 * /person/setting/changepassword: the current password, the new one twice. Afterwards every other
 * session has ended and withdrawals are locked for 24 h (a published rule); the page says both,
 * with the time the lock ends as the server states it.
 */
export function ChangePasswordPage() {
  const i18n = useI18n();
  const { t, tServer } = i18n;
  const [form, setForm] = useState({ oldPassword: '', password: '', confirmPassword: '' });
  const [problems, setProblems] = useState<FieldProblems<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ lockedUntil: string | null } | null>(null);
  const set = (key: Field, value: string) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found: FieldProblems<Field> = {};
    if (form.oldPassword === '') found.oldPassword = 'required';
    const password = passwordProblem(form.password);
    if (password) found.password = password;
    const confirm = confirmProblem(form.password, form.confirmPassword);
    if (confirm) found.confirmPassword = confirm;
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await api(changeLoginPasswordContract, { body: form });
      const overview = await api(securityOverviewContract).catch(() => null);
      setDone({ lockedUntil: overview?.withdrawalsLockedUntil ?? null });
    } catch (error) {
      if (isSessionError(error)) return;
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      if (error.message === errorCatalogue.WRONG_ORIGINAL_PASSWORD.msg) setProblems({ oldPassword: 'invalid' });
      const seconds = error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      setFormError(seconds ? t('web.auth.tryAgainIn', { seconds }) : tServer(error.message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.settings.changePasswordTitle')} backTo="/person/setting" />
      {done ? (
        <Card>
          <Notice title={t('web.settings.passwordChanged')} testId="password-changed">
            <p>{t('web.settings.otherSessionsEnded')}</p>
            <p data-testid="withdrawal-lock-until">
              {done.lockedUntil
                ? t('web.settings.withdrawalsLockedUntil', { time: formatDateTime(done.lockedUntil) })
                : t('web.settings.withdrawalsLocked24h')}
            </p>
          </Notice>
          <Link to="/person/setting" className="btn btn-secondary btn-block">
            {t('web.settings.backToSettings')}
          </Link>
        </Card>
      ) : (
        <form className="card" onSubmit={submit} noValidate>
          <Notice tone="warning">{t('web.settings.changePasswordWarning')}</Notice>
          {formError && (
            <Notice tone="error" testId="form-error">
              {formError}
            </Notice>
          )}
          <TextField
            label={t('web.settings.oldPassword')}
            name="oldPassword"
            type="password"
            autoComplete="current-password"
            value={form.oldPassword}
            maxLength={128}
            onChange={(event) => set('oldPassword', event.target.value)}
            error={problems.oldPassword === 'invalid' ? tServer(errorCatalogue.WRONG_ORIGINAL_PASSWORD.msg) : problemText(i18n, problems.oldPassword)}
          />
          <NewPasswordFields password={form.password} confirmPassword={form.confirmPassword} onChange={set} problems={problems} />
          <Button type="submit" block busy={busy} data-testid="change-password-submit">
            {t('web.settings.save')}
          </Button>
        </form>
      )}
    </div>
  );
}
