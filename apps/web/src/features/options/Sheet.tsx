import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';

/**
 * A bottom sheet on the native modal `<dialog>`: the browser keeps focus inside it, makes the
 * page behind it inert, and closes it on Escape (reported through `onClose`). Shown while mounted.
 */
export function Sheet({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId?: string }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closing = useRef(onClose);
  closing.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      closing.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog ref={ref} className="options-sheet" aria-labelledby={titleId} data-testid={testId}>
      <div className="options-sheet-head">
        <h2 id={titleId} className="card-title">
          {title}
        </h2>
        <button type="button" className="options-sheet-close" aria-label={t('web.options.close')} onClick={() => closing.current()}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="options-sheet-body">{children}</div>
    </dialog>
  );
}
