import { ApiError, errorCatalogue, registerContract, sendCodeContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { FAIL400, safeRedirect } from '../../shared/api/redirect.ts';
import { useLoggedIn } from '../../shared/api/session.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { AgreementCheckbox } from './AgreementCheckbox.tsx';
import { AuthHeader } from './AuthHeader.tsx';
import { ChannelTabs } from './ChannelTabs.tsx';
import { AddressField, CodeRow } from './ContactCodeFields.tsx';
import { type CodeChannel, type RegisterChannel, validateContactRegistration } from './contact-validation.ts';
import { finishLogin } from './finish-login.ts';
import { problemText } from './problems.ts';
import { type FieldProblem, type FieldProblems, problemsFromServer, validateRegistration } from './validation.ts';
import './auth.css';

type Field = 'username' | 'target' | 'code' | 'password' | 'confirmPassword' | 'inviteCode' | 'agreement';
const serverFields = ['username', 'email', 'phone', 'code', 'password', 'confirmPassword', 'inviteCode', 'agreement'] as const;
const channels: RegisterChannel[] = ['sms', 'email', 'username'];

function isChannel(value: string | null): value is RegisterChannel {
  return value !== null && (channels as string[]).includes(value);
}

/** The server's field problems on this form: an e-mail or phone problem belongs to the address field. */
function fromServer(data: unknown, channel: RegisterChannel): FieldProblems<Field> {
  const raw = problemsFromServer(data, serverFields);
  const problems: FieldProblems<Field> = {};
  for (const [name, problem] of Object.entries(raw) as [(typeof serverFields)[number], FieldProblem][]) {
    if (name === 'email' || name === 'phone') problems.target = name === 'email' ? 'emailFormat' : 'phoneFormat';
    else if (name === 'code') problems.code = 'codeFormat';
    else problems[name] = problem;
  }
  if (channel === 'username' && problems.target) delete problems.target;
  return problems;
}

/**
 * /register: by phone or e-mail (with the 6-digit code sent to it) or by username (spec sections 2
 * and 5). The invite code is optional unless the operator requires it, which the server says by
 * answering "invalid invitation code" to a registration without one.
 */
export function RegisterForm() {
  const i18n = useI18n();
  const { t, tServer, locale, adoptLocale } = i18n;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const redirect = params.get('redirect');
  const by = params.get('by');
  const [channel, setChannel] = useState<RegisterChannel>(isChannel(by) ? by : 'sms');
  const [form, setForm] = useState({ username: '', target: '', code: '', password: '', confirmPassword: '', inviteCode: '', agreement: false });
  const [problems, setProblems] = useState<FieldProblems<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);
  const [inviteRequired, setInviteRequired] = useState(false);
  const [busy, setBusy] = useState(false);

  if (loggedIn && !busy) return <Navigate to={safeRedirect(redirect)} replace />;

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((current) => ({ ...current, [key]: value }));
  const codeChannel: CodeChannel | null = channel === 'username' ? null : channel;

  function switchChannel(next: RegisterChannel) {
    setChannel(next);
    setProblems({});
    setFormError(null);
    setCodeNotice(null);
    setForm((current) => ({ ...current, target: '', code: '' }));
  }

  function validate(): FieldProblems<Field> {
    if (codeChannel) return validateContactRegistration(codeChannel, form);
    return validateRegistration({ ...form });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = validate();
    if (inviteRequired && form.inviteCode.trim() === '') found.inviteCode = 'required';
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const inviteCode = form.inviteCode.trim();
      const who =
        channel === 'username'
          ? { username: form.username.trim() }
          : channel === 'email'
            ? { email: form.target.trim(), code: form.code.trim() }
            : { phone: form.target.trim(), code: form.code.trim() };
      const answer = await api(registerContract, {
        body: {
          ...who,
          password: form.password,
          confirmPassword: form.confirmPassword,
          agreement: true,
          inviteCode: inviteCode === '' ? undefined : inviteCode,
          language: locale,
        },
      });
      finishLogin(answer, adoptLocale);
      navigate(safeRedirect(redirect), { replace: true });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) return setFormError(t('web.common.loadFailed'));
      const next = fromServer(error.data, channel);
      if (error.message === errorCatalogue.INVALID_INVITATION_CODE.msg) {
        // Without a code this answer means the operator requires one.
        if (form.inviteCode.trim() === '') setInviteRequired(true);
        next.inviteCode = 'invalid';
      }
      if (error.message === errorCatalogue.WRONG_VERIFICATION_CODE.msg) next.code = 'invalid';
      setProblems(next);
      setFormError(tServer(error.message));
    }
  }

  const targetLabel = channel === 'email' ? t('web.auth.email') : t('web.auth.phone');
  return (
    <div className="auth-page">
      <AuthHeader logoSize={48} />
      <form className="auth-card" onSubmit={submit} noValidate>
        <h1>{t('web.register.title')}</h1>
        <p className="muted">{t('web.auth.registerSubtitle')}</p>
        <ChannelTabs
          idPrefix="register"
          label={t('web.auth.registerBy')}
          value={channel}
          onChange={switchChannel}
          tabs={[
            { value: 'sms', label: t('web.auth.tabPhone') },
            { value: 'email', label: t('web.auth.tabEmail') },
            { value: 'username', label: t('web.auth.tabUsername') },
          ]}
        />
        <div className="form-stack" id="register-panel" role="tabpanel" aria-labelledby={`register-tab-${channel}`}>
          {formError && (
            <Notice tone="error" testId="form-error">
              {formError}
            </Notice>
          )}
          {codeNotice && !formError && <Notice testId="code-notice">{codeNotice}</Notice>}
          {codeChannel ? (
            <>
              <AddressField
                key={codeChannel}
                channel={codeChannel}
                label={targetLabel}
                value={form.target}
                onChange={(value) => set('target', value)}
                problem={problems.target}
              />
              <CodeRow
                channel={codeChannel}
                target={form.target}
                value={form.code}
                onChange={(value) => set('code', value)}
                problem={problems.code}
                send={() => api(sendCodeContract, { body: { channel: codeChannel, target: form.target.trim(), purpose: 'register', language: locale } })}
                sentNotice={codeChannel === 'email' ? t('web.auth.codeSentEmail') : t('web.auth.codeSentPhone')}
                onTargetChecked={(problem) => setProblems(problem ? { target: problem } : {})}
                setFormError={setFormError}
                setCodeNotice={setCodeNotice}
              />
            </>
          ) : (
            <TextField
              label={t('web.register.username')}
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              hint={t('web.register.usernameHint')}
              value={form.username}
              maxLength={32}
              onChange={(event) => set('username', event.target.value)}
              error={problemText(i18n, problems.username)}
            />
          )}
          <TextField
            label={t('web.register.password')}
            name="password"
            type="password"
            autoComplete="new-password"
            hint={t('web.register.passwordHint')}
            value={form.password}
            maxLength={128}
            onChange={(event) => set('password', event.target.value)}
            error={problemText(i18n, problems.password)}
          />
          <TextField
            label={t('web.register.confirmPassword')}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            placeholder={t('web.register.confirmPasswordPlaceholder')}
            value={form.confirmPassword}
            maxLength={128}
            onChange={(event) => set('confirmPassword', event.target.value)}
            error={problemText(i18n, problems.confirmPassword)}
          />
          <TextField
            label={inviteRequired ? t('web.auth.inviteCodeRequired') : t('web.register.inviteCode')}
            name="inviteCode"
            autoCapitalize="characters"
            spellCheck={false}
            required={inviteRequired}
            placeholder={t('web.register.inviteCodePlaceholder')}
            value={form.inviteCode}
            maxLength={16}
            onChange={(event) => set('inviteCode', event.target.value)}
            error={problems.inviteCode === 'invalid' ? tServer(errorCatalogue.INVALID_INVITATION_CODE.msg) : problemText(i18n, problems.inviteCode)}
          />
          <AgreementCheckbox checked={form.agreement} onChange={(value) => set('agreement', value)} error={problemText(i18n, problems.agreement)} />
          <Button type="submit" block busy={busy} data-testid="register-submit">
            {t('web.register.submit')}
          </Button>
        </div>
        <p className="auth-switch">
          {t('web.register.haveAccount')}{' '}
          <Link to={redirect && redirect !== FAIL400 ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'}>{t('web.register.loginLink')}</Link>
        </p>
      </form>
    </div>
  );
}
