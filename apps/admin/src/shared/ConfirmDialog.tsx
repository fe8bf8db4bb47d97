import { useI18n } from './i18n.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';

/** Asks before a staff action takes effect, saying what it will do; the action runs only on confirm. */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
  onCancel,
  testId,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  /** The refusal of the last attempt (a mutation's error), shown in the dialog. */
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  /** The dialog's test id; its buttons are `<testId>-confirm` and `<testId>-cancel`. */
  testId?: string;
}) {
  const { t } = useI18n();
  return (
    <div className="dialog-backdrop">
      <div className="card dialog" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-text" data-testid={testId}>
        <h3 id="confirm-title">{title}</h3>
        <p id="confirm-text">{text}</p>
        <ErrorAlert error={error} />
        <div className="row">
          <button type="button" className="secondary" onClick={onCancel} data-testid={testId && `${testId}-cancel`}>
            {t('admin.common.cancel')}
          </button>
          <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm} disabled={busy} data-testid={testId && `${testId}-confirm`}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
