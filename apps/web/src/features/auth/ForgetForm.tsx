import { ApiError, resetPasswordContract, sendCodeContract } from '@keel/contracts';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { onSiteOf } from '../../app/desktop-paths.ts';

import { useContractMutation } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, mustMatch, setFormNotice, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, PageHeader } from '../../shared/ui/components.tsx';
import { ChannelTabs } from './ChannelTabs.tsx';
import { type CodeChannel, retryAfterSeconds } from './code-wait.ts';
import { AddressField, CodeRow } from './ContactCodeFields.tsx';
import { requiredCodeSchema, targetSchema } from './contact-schemas.ts';
import type { LoginNoticeState } from './LoginForm.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import './auth.css';

/** The reset contract's fields; the address is checked as this tab's kind of address. */
function resetSchema(channel: CodeChannel) {
  const fields = bodySchema(resetPasswordContract)
    .pick({ password: true, confirmPassword: true })
    .extend({ target: targetSchema(channel), code: requiredCodeSchema });
  return mustMatch(fields, 'password', 'confirmPassword');
}

/**
 * /forget: a new password with a code sent to the account's phone or e-mail (spec section 2). The
 * server answers the same whether or not an account has the address, so this page never tells;
 * a reset ends every session, and withdrawals then wait 24 h (a published rule, shown here).
 */
export function ForgetForm() {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  // On the desktop site (ADR 0048) the way back to login stays on it.
  const login = onSiteOf(useLocation().pathname, '/login');
  const [channel, setChannel] = useState<CodeChannel>('sms');
  const [codeSent, setCodeSent] = useState(false);
  const schema = useMemo(() => resetSchema(channel), [channel]);
  const form = useContractForm(schema, { defaultValues: { target: '', code: '', password: '', confirmPassword: '' } });
  const reset = useContractMutation(resetPasswordContract);
  const sendCode = useContractMutation(sendCodeContract);

  function switchChannel(next: CodeChannel) {
    setChannel(next);
    setCodeSent(false);
    form.clearErrors();
    form.setValue('target', '');
    form.setValue('code', '');
  }

  const submit = form.handleSubmit(async (values) => {
    try {
      await reset.mutateAsync({ body: { channel, ...values } });
      const state: LoginNoticeState = { passwordReset: true };
      navigate(login, { replace: true, state });
    } catch (error) {
      const seconds = error instanceof ApiError && error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      if (seconds) setFormNotice(form, t('web.auth.tryAgainIn', { seconds }));
      else applyRefusal(form, error, { fieldErrors: { WRONG_PHONE_NUMBER: 'target' } });
    }
  });

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
          <FormError form={form} />
          {codeSent && !form.formState.errors.root?.server && (
            // The same words whether or not an account has this address.
            <Notice testId="code-notice">{channel === 'email' ? t('web.auth.resetCodeSentEmail') : t('web.auth.resetCodeSentPhone')}</Notice>
          )}
          <AddressField key={channel} form={form} channel={channel} label={channel === 'email' ? t('web.auth.email') : t('web.auth.phone')} />
          <CodeRow
            form={form}
            send={(target) => sendCode.mutateAsync({ body: { channel, target, purpose: 'reset_password', language: locale } })}
            onSent={setCodeSent}
          />
          <NewPasswordFields form={form} />
          <Notice>{t('web.auth.resetWarning')}</Notice>
          <Button type="submit" block busy={form.formState.isSubmitting} data-testid="reset-submit">
            {t('web.auth.resetSubmit')}
          </Button>
        </div>
        <p className="auth-switch">
          <Link to={login}>{t('web.forget.backToLogin')}</Link>
        </p>
      </form>
    </div>
  );
}
