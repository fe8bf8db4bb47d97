import { ApiError, setNicknameContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useMe } from '../profile/useMe.ts';

/** The nickname rule of the contract: 2–20 characters, no control characters or angle brackets. */
export function nicknameProblem(text: string): 'required' | 'nicknameFormat' | undefined {
  const value = text.trim();
  if (value === '') return 'required';
  return value.length >= 2 && value.length <= 20 && /^[^\p{Cc}<>]+$/u.test(value) ? undefined : 'nicknameFormat';
}

/** /safeSetting/nickname: the nickname can be set once only (spec sections 3 to 5). */
export function NicknameForm() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const { user, failed, reload } = useMe();
  const [nickname, setNickname] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = nicknameProblem(nickname);
    setProblem(found === 'required' ? t('web.validation.required') : found ? t('web.settings.nicknameFormat') : undefined);
    if (found) return;
    setBusy(true);
    try {
      await api(setNicknameContract, { body: { nickname: nickname.trim() } });
      toast(t('web.settings.nicknameSaved'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      setBusy(false);
      if (isSessionError(error)) return;
      setFormError(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
    }
  }

  if (failed) return <LoadFailedNotice onRetry={reload} />;
  if (!user) return <p className="muted">{t('web.common.loading')}</p>;
  if (user.nickname !== null) {
    return (
      <div className="card" data-testid="nickname-fixed">
        <dl className="facts">
          <div>
            <dt>{t('web.settings.nickname')}</dt>
            <dd data-testid="nickname-value">{user.nickname}</dd>
          </div>
        </dl>
        <p className="muted">{t('web.settings.nicknameOnce')}</p>
      </div>
    );
  }
  return (
    <form className="card" onSubmit={submit} noValidate>
      <Notice tone="warning">{t('web.settings.nicknameOnceWarning')}</Notice>
      {formError && (
        <Notice tone="error" testId="form-error">
          {formError}
        </Notice>
      )}
      <TextField
        label={t('web.settings.nickname')}
        name="nickname"
        hint={t('web.settings.nicknameHint')}
        value={nickname}
        maxLength={20}
        onChange={(event) => setNickname(event.target.value)}
        error={problem}
      />
      <Button type="submit" block busy={busy} data-testid="nickname-submit">
        {t('web.settings.save')}
      </Button>
    </form>
  );
}
