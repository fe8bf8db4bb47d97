import { bindContactContract, meContract, securityOverviewContract, sendContactCodeContract } from '@keel/contracts';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import type { CodeChannel } from '../auth/code-wait.ts';
import { AddressField, CodeRow } from '../auth/ContactCodeFields.tsx';
import { requiredCodeSchema, targetSchema } from '../auth/contact-schemas.ts';

/** The bind contract's address and code; the address is checked as this page's kind of address. */
function bindSchema(channel: CodeChannel) {
  return bodySchema(bindContactContract).omit({ channel: true }).extend({ target: targetSchema(channel), code: requiredCodeSchema });
}

/** /safeSetting/email and /safeSetting/phone: bind or change the address with a code sent to it. */
export function BindContactForm({ channel }: { channel: CodeChannel }) {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const security = useContractQuery(securityOverviewContract);
  const schema = useMemo(() => bindSchema(channel), [channel]);
  const form = useContractForm(schema, { defaultValues: { target: '', code: '' } });
  const [codeSent, setCodeSent] = useState(false);
  const sendCode = useContractMutation(sendContactCodeContract);
  const bind = useContractMutation(bindContactContract, { invalidates: [securityOverviewContract, meContract] });
  const overview = security.data;
  const current = channel === 'email' ? overview?.email : overview?.phone;

  const submit = form.handleSubmit(async (values) => {
    try {
      await bind.mutateAsync({ body: { channel, ...values } });
      toast(channel === 'email' ? t('web.settings.emailSaved') : t('web.settings.phoneSaved'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      applyRefusal(form, error, { fieldErrors: { WRONG_PHONE_NUMBER: 'target' } });
    }
  });

  return (
    <>
      {loadFailed(security) && <LoadFailedNotice onRetry={() => void security.refetch()} />}
      <form className="card" onSubmit={submit} noValidate>
        <dl className="facts">
          <div>
            <dt>{channel === 'email' ? t('web.settings.currentEmail') : t('web.settings.currentPhone')}</dt>
            <dd data-testid="current-contact">{overview ? (current ?? t('web.settings.notBound')) : t('web.common.loading')}</dd>
          </div>
        </dl>
        <p className="muted">{channel === 'email' ? t('web.settings.bindEmailIntro') : t('web.settings.bindPhoneIntro')}</p>
        <FormError form={form} />
        {codeSent && !form.formState.errors.root?.server && (
          <Notice testId="code-notice">{channel === 'email' ? t('web.auth.codeSentEmail') : t('web.auth.codeSentPhone')}</Notice>
        )}
        <AddressField form={form} channel={channel} label={channel === 'email' ? t('web.settings.newEmail') : t('web.settings.newPhone')} />
        <CodeRow form={form} send={(target) => sendCode.mutateAsync({ body: { channel, target } })} onSent={setCodeSent} />
        <Button type="submit" block busy={form.formState.isSubmitting} data-testid="bind-submit">
          {t('web.settings.save')}
        </Button>
      </form>
    </>
  );
}
