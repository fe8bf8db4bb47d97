import { ApiError, errorCatalogue, resetPasswordContract, sendCodeContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, PageHeader } from '../../shared/ui/components.tsx';
import { ChannelTabs } from './ChannelTabs.tsx';
import { AddressField, CodeRow } from './ContactCodeFields.tsx';
import { type CodeChannel, type ResetField, retryAfterSeconds, validateReset } from './contact-validation.ts';
import type { LoginNoticeState } from './LoginForm.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { type FieldProblems, problemsFromServer } from './validation.ts';
import './auth.css';

const serverFields = ['target', 'code', 'password', 'confirmPassword'] as const;

/**
 * /forget: a new password with a code sent to the account's phone or e-mail (spec section 2). The
 * server answers the same whether or not an account has the address, so this page never tells;
 * a reset ends every session, and withdrawals then wait 24 h (a published rule, shown here).
 */
export function ForgetForm() {
  const i18n = useI18n();
  const { t, tServer, locale } = i18n;
  const navigate = useNavigate();
  const [channel, setChannel] = useState<CodeChannel>('sms');
  const [form, setForm] = useState({ target: '', code: '', password: '', confirmPassword: '' });
  const [problems, setProblems] = useState<FieldProblems<ResetField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((current) => ({ ...current, [key]: value }));

  function switchChannel(next: CodeChannel) {
    setChannel(next);
    setProblems({});
    setFormError(null);
    setCodeNotice(null);
    setForm((current) => ({ ...current, target: '', code: '' }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = validateReset(channel, form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await api(resetPasswordContract, {
        body: { channel, target: form.target.trim(), code: form.code.trim(), password: form.password, confirmPassword: form.confirmPassword },
      });
      const state: LoginNoticeState = { passwordReset: true };
      navigate('/login', { replace: true, state });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      const next = problemsFromServer(error.data, serverFields);
      // A malformed address is the address's format problem, in this channel's words.
      if (next.target) next.target = channel === 'email' ? 'emailFormat' : 'phoneFormat';
      if (error.message === errorCatalogue.WRONG_VERIFICATION_CODE.msg) next.code = 'invalid';
      setProblems(next);
      const seconds = error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      setFormError(seconds ? t('web.auth.tryAgainIn', { seconds }) : tServer(error.message));
    }
  }

  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.forget.title')} backTo="/login" />
      <form className="auth-card" onSubmit={submit} noValidate>
        <p className="muted">{t('web.auth.forgetIntro')}</p>
        <ChannelTabs
          idPrefix="forget"
          label={t('web.auth.recoverBy')}
          value={channel}
          onChange={switchChannel}
          tabs={[
            { value: 'sms', label: t('web.auth.tabPhone') },
            { value: 'email', label: t('web.auth.tabEmail') },
          ]}
        />
        <div className="form-stack" id="forget-panel" role="tabpanel" aria-labelledby={`forget-tab-${channel}`}>
          {formError && (
            <Notice tone="error" testId="form-error">
              {formError}
            </Notice>
          )}
          {codeNotice && !formError && <Notice testId="code-notice">{codeNotice}</Notice>}
          <AddressField
            key={channel}
            channel={channel}
            label={channel === 'email' ? t('web.auth.email') : t('web.auth.phone')}
            value={form.target}
            onChange={(value) => set('target', value)}
            problem={problems.target}
          />
          <CodeRow
            channel={channel}
            target={form.target}
            value={form.code}
            onChange={(value) => set('code', value)}
            problem={problems.code}
            send={() => api(sendCodeContract, { body: { channel, target: form.target.trim(), purpose: 'reset_password', language: locale } })}
            // The same words whether or not an account has this address.
            sentNotice={channel === 'email' ? t('web.auth.resetCodeSentEmail') : t('web.auth.resetCodeSentPhone')}
            onTargetChecked={(problem) => setProblems(problem ? { target: problem } : {})}
            setFormError={setFormError}
            setCodeNotice={setCodeNotice}
          />
          <NewPasswordFields password={form.password} confirmPassword={form.confirmPassword} onChange={set} problems={problems} />
          <Notice>{t('web.auth.resetWarning')}</Notice>
          <Button type="submit" block busy={busy} data-testid="reset-submit">
            {t('web.auth.resetSubmit')}
          </Button>
        </div>
        <p className="auth-switch">
          <Link to="/login">{t('web.forget.backToLogin')}</Link>
        </p>
      </form>
    </div>
  );
}
