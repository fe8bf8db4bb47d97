import { applyRefusal, type FormOf, setFormNotice, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { TextField } from '../../shared/ui/components.tsx';
import type { CodeChannel } from './code-wait.ts';
import { SendCodeButton } from './SendCodeButton.tsx';

/** The two fields every code flow has (register, recover, bind): the address and the code sent to it. */
export interface CodeFlowFields {
  target: string;
  code: string;
}

/** The phone or e-mail address a code is sent to; only the label differs between the forms. */
export function AddressField<T extends CodeFlowFields>({ form, channel, label }: { form: FormOf<T>; channel: CodeChannel; label: string }) {
  const { t } = useI18n();
  const field = useFieldProps(form as unknown as FormOf<CodeFlowFields>);
  return (
    <TextField
      label={label}
      type={channel === 'email' ? 'email' : 'tel'}
      autoComplete={channel === 'email' ? 'email' : 'tel'}
      autoCapitalize="none"
      spellCheck={false}
      hint={channel === 'sms' ? t('web.auth.phoneHint') : undefined}
      placeholder={channel === 'email' ? t('web.auth.emailPlaceholder') : t('web.auth.phonePlaceholder')}
      maxLength={channel === 'email' ? 254 : 32}
      {...field('target')}
    />
  );
}

/**
 * The code and its "send code" button. Sending first checks the address with the form's own rule
 * (its error shows on the field), then a refusal goes where it belongs: a malformed or missing
 * address on the address field, anything else (an address already registered) in the form's notice.
 */
export function CodeRow<T extends CodeFlowFields>({
  form: anyForm,
  send,
  onSent,
}: {
  form: FormOf<T>;
  /** Sends the code to the (checked, trimmed) address. */
  send: (target: string) => Promise<{ expiresAtMs: number; resendAfterMs: number }>;
  /** Called with true once a code is sent, false when a send was refused (the notice goes). */
  onSent: (sent: boolean) => void;
}) {
  const { t } = useI18n();
  const form = anyForm as unknown as FormOf<CodeFlowFields>;
  const field = useFieldProps(form);
  return (
    <div className="code-row">
      <TextField
        label={t('web.auth.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder={t('web.auth.codePlaceholder')}
        maxLength={6}
        {...field('code')}
      />
      <SendCodeButton
        beforeSend={async () => {
          form.clearErrors('root.server');
          return form.trigger('target');
        }}
        send={() => send(form.getValues('target').trim())}
        onResult={(outcome) => {
          onSent(outcome.sent);
          if (outcome.sent) return;
          if ('waitSeconds' in outcome) setFormNotice(form, t('web.auth.tryAgainIn', { seconds: outcome.waitSeconds }));
          else {
            applyRefusal(form, outcome.error, {
              fieldErrors: { WRONG_PHONE_NUMBER: 'target', EMAIL_REQUIRED: 'target', PHONE_REQUIRED: 'target' },
            });
          }
        }}
      />
    </div>
  );
}
