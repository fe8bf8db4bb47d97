import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { TextField } from '../../shared/ui/components.tsx';
import { problemText } from './problems.ts';
import type { FieldProblem } from './validation.ts';

type Name = 'password' | 'confirmPassword';

/** "New password" and its confirmation, as the reset and change-password forms ask for them. */
export function NewPasswordFields(props: {
  password: string;
  confirmPassword: string;
  onChange: (name: Name, value: string) => void;
  problems: Partial<Record<Name, FieldProblem>>;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  return (
    <>
      <TextField
        label={t('web.auth.newPassword')}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={t('web.register.passwordHint')}
        value={props.password}
        maxLength={128}
        onChange={(event) => props.onChange('password', event.target.value)}
        error={problemText(i18n, props.problems.password)}
      />
      <TextField
        label={t('web.auth.confirmNewPassword')}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={props.confirmPassword}
        maxLength={128}
        onChange={(event) => props.onChange('confirmPassword', event.target.value)}
        error={problemText(i18n, props.problems.confirmPassword)}
      />
    </>
  );
}
