import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from './ErrorAlert.tsx';
import { useI18n } from './i18n.tsx';

/**
 * A form in a modal dialog: its title, its fields (`children`), the refusal of the last attempt,
 * and cancel and submit. The form's checks and the call are the caller's (react-hook-form and a
 * mutation); the browser's own checks are off so messages come in the member's language.
 */
export function Dialog({
  label,
  title,
  onSubmit,
  onCancel,
  submitLabel,
  busy,
  error,
  children,
}: {
  label: string;
  title: string;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="dialog-backdrop">
      <form className="card dialog" onSubmit={onSubmit} noValidate aria-label={label}>
        <h3>{title}</h3>
        {children}
        <ErrorAlert error={error} />
        <div className="row">
          <button type="button" className="secondary" onClick={onCancel}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </div>
  );
}
