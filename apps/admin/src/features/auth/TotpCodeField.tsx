import type { UseFormRegisterReturn } from 'react-hook-form';
import { useI18n } from '../../shared/i18n.tsx';

/** The six digits an authenticator app shows, as typed at login and when enrolling one. */
export function TotpCodeField({ field, describedBy, required }: { field: UseFormRegisterReturn; describedBy: string; required?: boolean }) {
  const { t } = useI18n();
  return (
    <label>
      {t('admin.login.totpCode')}
      <input inputMode="numeric" autoComplete="one-time-code" maxLength={6} required={required} aria-describedby={describedBy} {...field} />
    </label>
  );
}

/** What a code field holds: its digits (people type "123 456"). */
export const codeDigits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
