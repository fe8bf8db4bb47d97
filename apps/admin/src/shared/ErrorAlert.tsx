import { useI18n } from './i18n.tsx';

/**
 * A refused or failed call, announced to screen readers: `message` as given, or `error` (a query's
 * or a mutation's) as the server's catalogue message in the staff member's language. Renders
 * nothing without either.
 */
export function ErrorAlert({ message, error }: { message?: string | null; error?: unknown }) {
  const { describeError } = useI18n();
  const text = message ?? (error ? describeError(error) : null);
  if (!text) return null;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}
