import { staffLoginContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { api, staffToken } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { LanguageSelect } from '../../shared/LanguageSelect.tsx';

export function LoginPage({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t, describeError } = useI18n();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Staff with an authenticator send its code; the first login (one-time password) has none yet.
      const data = await api(staffLoginContract, { body: { username, password, totpCode: totpCode.trim() || undefined } });
      staffToken.set(data.token);
      onLoggedIn();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="card" onSubmit={submit}>
        <h1>{t('admin.login.title')}</h1>
        <label>
          {t('admin.login.username')}
          <input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required />
        </label>
        <label>
          {t('admin.login.password')}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        <label>
          {t('admin.login.totpCode')}
          <input
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={totpCode}
            onChange={(e) => setTotpCode(e.target.value.replace(/\D/g, ''))}
            aria-describedby="totp-hint"
          />
        </label>
        <p id="totp-hint" className="muted hint">
          {t('admin.login.totpHint')}
        </p>
        <ErrorAlert message={error} />
        <button type="submit" disabled={busy}>
          {t('admin.login.submit')}
        </button>
        <LanguageSelect />
      </form>
    </main>
  );
}
