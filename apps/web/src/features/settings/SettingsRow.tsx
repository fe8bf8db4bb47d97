import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronIcon } from '../../shared/ui/icons.tsx';

/** One line of a settings list: a label, the current state, and the page that changes it. */
export function SettingsRow({ to, icon, label, value, testId }: { to?: string; icon: ReactNode; label: string; value?: ReactNode; testId: string }) {
  const content = (
    <>
      <span className="list-link-icon">{icon}</span>
      <span className="list-link-label">{label}</span>
      {value !== undefined && (
        <span className="list-link-value" data-testid={`${testId}-value`}>
          {value}
        </span>
      )}
    </>
  );
  if (!to) {
    return (
      <div className="list-row" data-testid={testId}>
        {content}
      </div>
    );
  }
  return (
    <Link to={to} className="list-link" data-testid={testId}>
      {content}
      <ChevronIcon />
    </Link>
  );
}
