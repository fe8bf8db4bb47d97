import type { ReactNode } from 'react';

/**
 * A queue record opened above its table: a heading that names the user it belongs to (when it
 * belongs to one; an appeal names its two sides in its fields instead), a close button, then the
 * record's fields and actions.
 */
export function DetailCard({
  label,
  title,
  record,
  closeLabel,
  onClose,
  testId,
  children,
}: {
  label: string;
  title: string;
  record?: { userName: string; userId: string };
  closeLabel: string;
  onClose: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className="card detail" aria-label={label} data-testid={testId}>
      <div className="row spread">
        <h3>
          {title}
          {record && ` · ${record.userName} (#${record.userId})`}
        </h3>
        <button type="button" className="secondary" onClick={onClose}>
          {closeLabel}
        </button>
      </div>
      {children}
    </section>
  );
}
