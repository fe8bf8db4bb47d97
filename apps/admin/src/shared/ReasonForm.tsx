import type { FormEvent, ReactNode } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FieldErrorText } from './forms.tsx';
import { useI18n } from './i18n.tsx';

/**
 * A rejection's reason, which the user will read: the text box (its rule is the contract's, checked
 * by the caller's form), what happens to it (`notes`), cancel, and the danger button that sends it.
 */
export function ReasonForm({
  label,
  field,
  error,
  notes,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  label: string;
  field: UseFormRegisterReturn;
  error: FieldError | undefined;
  notes: ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const errorId = `${field.name}-error`;
  return (
    <form onSubmit={onSubmit} noValidate>
      <label>
        {label}
        <textarea maxLength={500} required aria-describedby={errorId} {...field} />
      </label>
      <FieldErrorText error={error} id={errorId} />
      {notes}
      <div className="row">
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          {t('admin.common.cancel')}
        </button>
        <button type="submit" className="danger" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
