import { staffLoginContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { ApiError, api, staffToken } from '../../shared/api.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { LanguageSelect } from '../../shared/LanguageSelect.tsx';

export function LoginPage({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t, tServer } = useI18n();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const data = await api(staffLoginContract, { body: { username, password } });
      staffToken.set(data.token);
      onLoggedIn();
    } catch (caught) {
      setError(caught instanceof ApiError ? tServer(caught.message) : t('error.UNKNOWN'));
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
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('admin.login.submit')}
        </button>
        <LanguageSelect />
      </form>
    </main>
  );
}
