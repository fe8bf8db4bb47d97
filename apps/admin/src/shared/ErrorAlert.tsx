/** A refused or failed call, announced to screen readers. Renders nothing without a message. */
export function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}
