import { ApiError, setAntiPhishingCodeContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useSecurity } from './useSecurity.ts';

/** /safeSetting/antiphishing: a code of 4–20 letters or digits that every e-mail from Keel shows. */
export function AntiPhishingForm() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const { overview, failed, reload } = useSecurity();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const value = code.trim();
    const found = value === '' ? t('web.validation.required') : /^[A-Za-z0-9]{4,20}$/.test(value) ? undefined : t('web.settings.antiPhishingFormat');
    setProblem(found);
    if (found) return;
    setBusy(true);
    try {
      await api(setAntiPhishingCodeContract, { body: { code: value } });
      toast(t('web.settings.antiPhishingSaved'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      setBusy(false);
      if (isSessionError(error)) return;
      setFormError(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
    }
  }

  return (
    <>
      {failed && <LoadFailedNotice onRetry={reload} />}
      <form className="card" onSubmit={submit} noValidate>
        <p className="muted">{t('web.settings.antiPhishingIntro')}</p>
        {overview?.antiPhishingCodeSet && <Notice testId="antiphishing-set">{t('web.settings.antiPhishingIsSet')}</Notice>}
        {formError && (
          <Notice tone="error" testId="form-error">
            {formError}
          </Notice>
        )}
        <TextField
          label={t('web.settings.antiPhishingCode')}
          name="antiPhishingCode"
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          hint={t('web.settings.antiPhishingFormat')}
          value={code}
          maxLength={20}
          onChange={(event) => setCode(event.target.value)}
          error={problem}
        />
        <Button type="submit" block busy={busy} data-testid="antiphishing-submit">
          {t('web.settings.save')}
        </Button>
      </form>
    </>
  );
}
