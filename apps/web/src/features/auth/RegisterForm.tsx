import { errorCatalogue, registerContract, registerFields, sendCodeContract, typedText, usernameSchema, validationMessages } from '@keel/contracts';
import { useMemo, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { onSiteOf } from '../../app/desktop-paths.ts';

import { useContractMutation } from '../../shared/api/queries.ts';
import { FAIL400, safeRedirect } from '../../shared/api/redirect.ts';
import { useLoggedIn } from '../../shared/api/session.ts';
import { applyRefusal, FormError, mustMatch, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { AgreementCheckbox } from './AgreementCheckbox.tsx';
import { AuthHeader } from './AuthHeader.tsx';
import { ChannelTabs } from './ChannelTabs.tsx';
import type { RegisterChannel } from './code-wait.ts';
import { AddressField, CodeRow } from './ContactCodeFields.tsx';
import { requiredCodeSchema, targetSchema } from './contact-schemas.ts';
import { finishLogin } from './finish-login.ts';
import { inviteCodeFromQuery } from '../invitations/invite-link.ts';
import './auth.css';

const channels: RegisterChannel[] = ['sms', 'email', 'username'];

function isChannel(value: string | null): value is RegisterChannel {
  return value !== null && (channels as string[]).includes(value);
}

const inviteCodeSchema = registerFields.shape.inviteCode.unwrap();

/**
 * The register contract's fields for one tab: the phone or e-mail with its code, or the username;
 * the invite code becomes required once the server said the operator requires one.
 */
function registerSchema(channel: RegisterChannel, inviteRequired: boolean) {
  const byContact = channel !== 'username';
  // The tabs share one form; the fields of the other tabs are checked only as text (they are not sent).
  const schema = registerFields.pick({ password: true, confirmPassword: true, agreement: true }).extend({
    username: byContact ? typedText(32) : usernameSchema,
    target: byContact ? targetSchema(channel) : typedText(254),
    code: byContact ? requiredCodeSchema : typedText(12),
    inviteCode: inviteRequired ? inviteCodeSchema.min(1, validationMessages.required) : inviteCodeSchema,
  });
  return mustMatch(schema, 'password', 'confirmPassword');
}

/**
 * /register: by phone or e-mail (with the 6-digit code sent to it) or by username (spec sections 2
 * and 5). The invite code is optional unless the operator requires it, which the server says by
 * answering "invalid invitation code" to a registration without one.
 */
export function RegisterForm() {
  const { t, locale, adoptLocale } = useI18n();
  const navigate = useNavigate();
  // On the desktop site (ADR 0048) the links and the way home stay on it.
  const { pathname } = useLocation();
  const site = (path: string) => onSiteOf(pathname, path);
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const redirect = params.get('redirect');
  const by = params.get('by');
  const [channel, setChannel] = useState<RegisterChannel>(isChannel(by) ? by : 'sms');
  const [codeSent, setCodeSent] = useState(false);
  const [inviteRequired, setInviteRequired] = useState(false);
  const schema = useMemo(() => registerSchema(channel, inviteRequired), [channel, inviteRequired]);
  const form = useContractForm(schema, {
    // An invitation link (`/register?invite=CODE`, issue 20) fills the code in.
    defaultValues: { username: '', target: '', code: '', password: '', confirmPassword: '', inviteCode: inviteCodeFromQuery(params.get('invite')) },
  });
  const field = useFieldProps(form);
  const register = useContractMutation(registerContract);
  const sendCode = useContractMutation(sendCodeContract);
  const busy = form.formState.isSubmitting;

  if (loggedIn && !busy) return <Navigate to={safeRedirect(redirect, site('/index'))} replace />;

  function switchChannel(next: RegisterChannel) {
    setChannel(next);
    setCodeSent(false);
    form.clearErrors();
    form.setValue('target', '');
    form.setValue('code', '');
  }

  const submit = form.handleSubmit(async (values) => {
    const who =
      channel === 'username'
        ? { username: values.username }
        : channel === 'email'
          ? { email: values.target, code: values.code }
          : { phone: values.target, code: values.code };
    try {
      const answer = await register.mutateAsync({
        body: {
          ...who,
          password: values.password,
          confirmPassword: values.confirmPassword,
          agreement: values.agreement,
          inviteCode: values.inviteCode === '' ? undefined : values.inviteCode,
          language: locale,
        },
      });
      finishLogin(answer, adoptLocale);
      navigate(safeRedirect(redirect, site('/index')), { replace: true });
    } catch (error) {
      // Without a code, "invalid invitation code" means the operator requires one.
      if (error instanceof Error && error.message === errorCatalogue.INVALID_INVITATION_CODE.msg && values.inviteCode === '') {
        setInviteRequired(true);
      }
      applyRefusal(form, error, {
        fields: { 'body.email': 'target', 'body.phone': 'target' },
        fieldErrors: { INVALID_INVITATION_CODE: 'inviteCode', WRONG_PHONE_NUMBER: 'target' },
      });
    }
  });

  const rootError = form.formState.errors.root?.server;
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
          <FormError form={form} />
          {codeSent && !rootError && (
            <Notice testId="code-notice">{channel === 'email' ? t('web.auth.codeSentEmail') : t('web.auth.codeSentPhone')}</Notice>
          )}
          {channel !== 'username' ? (
            <>
              <AddressField key={channel} form={form} channel={channel} label={channel === 'email' ? t('web.auth.email') : t('web.auth.phone')} />
              <CodeRow
                form={form}
                send={(target) => sendCode.mutateAsync({ body: { channel, target, purpose: 'register', language: locale } })}
                onSent={setCodeSent}
              />
            </>
          ) : (
            <TextField
              label={t('web.register.username')}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              hint={t('web.register.usernameHint')}
              maxLength={32}
              {...field('username')}
            />
          )}
          <TextField
            label={t('web.register.password')}
            type="password"
            autoComplete="new-password"
            hint={t('web.register.passwordHint')}
            maxLength={128}
            {...field('password')}
          />
          <TextField
            label={t('web.register.confirmPassword')}
            type="password"
            autoComplete="new-password"
            placeholder={t('web.register.confirmPasswordPlaceholder')}
            maxLength={128}
            {...field('confirmPassword')}
          />
          <TextField
            label={inviteRequired ? t('web.auth.inviteCodeRequired') : t('web.register.inviteCode')}
            autoCapitalize="characters"
            spellCheck={false}
            required={inviteRequired}
            placeholder={t('web.register.inviteCodePlaceholder')}
            maxLength={16}
            {...field('inviteCode')}
          />
          <AgreementCheckbox {...field('agreement')} />
          <Button type="submit" block busy={busy} data-testid="register-submit">
            {t('web.register.submit')}
          </Button>
        </div>
        <p className="auth-switch">
          {t('web.register.haveAccount')}{' '}
          <Link to={redirect && redirect !== FAIL400 ? `${site('/login')}?redirect=${encodeURIComponent(redirect)}` : site('/login')}>{t('web.register.loginLink')}</Link>
        </p>
      </form>
    </div>
  );
}
