import { type FormOf, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { TextField } from '../../shared/ui/components.tsx';

interface PasswordPair {
  password: string;
  confirmPassword: string;
}

/** "New password" and its confirmation, as the reset and change-password forms ask for them. */
export function NewPasswordFields<T extends PasswordPair>({ form }: { form: FormOf<T> }) {
  const { t } = useI18n();
  const field = useFieldProps(form as unknown as FormOf<PasswordPair>);
  return (
    <>
      <TextField
        label={t('web.auth.newPassword')}
        type="password"
        autoComplete="new-password"
        hint={t('web.register.passwordHint')}
        maxLength={128}
        {...field('password')}
      />
      <TextField label={t('web.auth.confirmNewPassword')} type="password" autoComplete="new-password" maxLength={128} {...field('confirmPassword')} />
    </>
  );
}
