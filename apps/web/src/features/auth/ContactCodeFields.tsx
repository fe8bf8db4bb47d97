import { errorCatalogue } from '@keel/contracts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { TextField } from '../../shared/ui/components.tsx';
import { type CodeChannel, targetProblem } from './contact-validation.ts';
import { problemText } from './problems.ts';
import { type SendCodeProps, SendCodeButton } from './SendCodeButton.tsx';
import type { FieldProblem } from './validation.ts';

/** The phone or e-mail address a code is sent to; only the label differs between the forms. */
export function AddressField(props: {
  channel: CodeChannel;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: FieldProblem | undefined;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { channel } = props;
  return (
    <TextField
      label={props.label}
      name={channel === 'email' ? 'email' : 'phone'}
      type={channel === 'email' ? 'email' : 'tel'}
      autoComplete={channel === 'email' ? 'email' : 'tel'}
      autoCapitalize="none"
      spellCheck={false}
      hint={channel === 'sms' ? t('web.auth.phoneHint') : undefined}
      placeholder={channel === 'email' ? t('web.auth.emailPlaceholder') : t('web.auth.phonePlaceholder')}
      value={props.value}
      maxLength={channel === 'email' ? 254 : 32}
      onChange={(event) => props.onChange(event.target.value)}
      error={problemText(i18n, props.problem)}
    />
  );
}

/**
 * The 6-digit code and its "send code" button. Sending first checks the address (the form then shows
 * only that problem, or none) and reports back as the form's code notice or form error.
 */
export function CodeRow(props: {
  channel: CodeChannel;
  target: string;
  value: string;
  onChange: (value: string) => void;
  problem: FieldProblem | undefined;
  send: SendCodeProps['send'];
  /** The notice once a code is sent. */
  sentNotice: string;
  onTargetChecked: (problem: FieldProblem | undefined) => void;
  setFormError: (message: string | null) => void;
  setCodeNotice: (message: string | null) => void;
}) {
  const i18n = useI18n();
  const { t, tServer } = i18n;
  return (
    <div className="code-row">
      <TextField
        label={t('web.auth.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder={t('web.auth.codePlaceholder')}
        value={props.value}
        maxLength={6}
        onChange={(event) => props.onChange(event.target.value.replace(/\D/g, ''))}
        error={props.problem === 'invalid' ? tServer(errorCatalogue.WRONG_VERIFICATION_CODE.msg) : problemText(i18n, props.problem)}
      />
      <SendCodeButton
        beforeSend={() => {
          const problem = targetProblem(props.channel, props.target);
          props.onTargetChecked(problem);
          props.setFormError(null);
          return !problem;
        }}
        send={props.send}
        onResult={(outcome) => {
          if (outcome.sent) {
            props.setCodeNotice(props.sentNotice);
          } else {
            props.setCodeNotice(null);
            props.setFormError(outcome.message);
          }
        }}
      />
    </div>
  );
}
