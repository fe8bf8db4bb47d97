import { ApiError, bindContactContract, errorCatalogue, sendContactCodeContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { AddressField, CodeRow } from '../auth/ContactCodeFields.tsx';
import { type CodeChannel, codeProblem, targetProblem } from '../auth/contact-validation.ts';
import type { FieldProblems } from '../auth/validation.ts';
import { useSecurity } from './useSecurity.ts';

type Field = 'target' | 'code';

/** /safeSetting/email and /safeSetting/phone: bind or change the address with a code sent to it. */
export function BindContactForm({ channel }: { channel: CodeChannel }) {
  const i18n = useI18n();
  const { t, tServer } = i18n;
  const toast = useToast();
  const navigate = useNavigate();
  const { overview, failed, reload } = useSecurity();
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [problems, setProblems] = useState<FieldProblems<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = channel === 'email' ? overview?.email : overview?.phone;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found: FieldProblems<Field> = {};
    const targetIssue = targetProblem(channel, target);
    if (targetIssue) found.target = targetIssue;
    const codeIssue = codeProblem(code);
    if (codeIssue) found.code = codeIssue;
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await api(bindContactContract, { body: { channel, target: target.trim(), code: code.trim() } });
      toast(channel === 'email' ? t('web.settings.emailSaved') : t('web.settings.phoneSaved'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      setBusy(false);
      if (isSessionError(error)) return;
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      if (error.message === errorCatalogue.WRONG_VERIFICATION_CODE.msg) setProblems({ code: 'invalid' });
      setFormError(tServer(error.message));
    }
  }

  return (
    <>
      {failed && <LoadFailedNotice onRetry={reload} />}
      <form className="card" onSubmit={submit} noValidate>
        <dl className="facts">
          <div>
            <dt>{channel === 'email' ? t('web.settings.currentEmail') : t('web.settings.currentPhone')}</dt>
            <dd data-testid="current-contact">{overview ? (current ?? t('web.settings.notBound')) : t('web.common.loading')}</dd>
          </div>
        </dl>
        <p className="muted">{channel === 'email' ? t('web.settings.bindEmailIntro') : t('web.settings.bindPhoneIntro')}</p>
        {formError && (
          <Notice tone="error" testId="form-error">
            {formError}
          </Notice>
        )}
        {codeNotice && !formError && <Notice testId="code-notice">{codeNotice}</Notice>}
        <AddressField
          channel={channel}
          label={channel === 'email' ? t('web.settings.newEmail') : t('web.settings.newPhone')}
          value={target}
          onChange={setTarget}
          problem={problems.target}
        />
        <CodeRow
          channel={channel}
          target={target}
          value={code}
          onChange={setCode}
          problem={problems.code}
          send={() => api(sendContactCodeContract, { body: { channel, target: target.trim() } })}
          sentNotice={channel === 'email' ? t('web.auth.codeSentEmail') : t('web.auth.codeSentPhone')}
          onTargetChecked={(problem) => setProblems(problem ? { target: problem } : {})}
          setFormError={setFormError}
          setCodeNotice={setCodeNotice}
        />
        <Button type="submit" block busy={busy} data-testid="bind-submit">
          {t('web.settings.save')}
        </Button>
      </form>
    </>
  );
}
