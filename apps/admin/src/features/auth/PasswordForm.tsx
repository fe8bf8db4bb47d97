import { setOwnStaffPasswordContract, STAFF_PASSWORD_MIN_LENGTH } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';

/**
 * Sets the staff member's own password with the current one (the one-time password on first
 * login). The browser checks the length and the repeat as the server does; the server decides.
 */
export function PasswordForm({ currentLabel, onDone, testId }: { currentLabel: MessageKey; onDone: () => void; testId: string }) {
  const { t, describeError } = useI18n();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (newPassword.length < STAFF_PASSWORD_MIN_LENGTH) return setError(t('admin.password.tooShort', { min: STAFF_PASSWORD_MIN_LENGTH }));
    if (newPassword !== repeat) return setError(t('error.PASSWORDS_INCONSISTENT'));
    setBusy(true);
    setError(null);
    try {
      await api(setOwnStaffPasswordContract, { body: { currentPassword, newPassword } });
      setCurrentPassword('');
      setNewPassword('');
      setRepeat('');
      onDone();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="detail" onSubmit={submit} data-testid={testId}>
      <label>
        {t(currentLabel)}
        <input
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
          maxLength={128}
          required
        />
      </label>
      <label>
        {t('admin.password.new')}
        <input
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          minLength={STAFF_PASSWORD_MIN_LENGTH}
          maxLength={128}
          required
          aria-describedby={`${testId}-rule`}
        />
      </label>
      <p id={`${testId}-rule`} className="muted hint">
        {t('admin.password.rule', { min: STAFF_PASSWORD_MIN_LENGTH })}
      </p>
      <label>
        {t('admin.password.repeat')}
        <input name="repeatPassword" type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} maxLength={128} required />
      </label>
      <ErrorAlert message={error} />
      <button type="submit" disabled={busy}>
        {t('admin.password.submit')}
      </button>
    </form>
  );
}
