import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';

/**
 * A labelled native select (each platform's own accessible picker), with its error announced; its
 * props include `ref`, so react-hook-form's `register` spreads onto it (ADR 0027).
 */
export function SelectField({
  label,
  error,
  children,
  ...rest
}: Omit<ComponentPropsWithRef<'select'>, 'id'> & { label: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...rest}>
        {children}
      </select>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled multi-line input. */
export function TextAreaField({ label, error, ...rest }: Omit<ComponentPropsWithRef<'textarea'>, 'id'> & { label: string; error?: string }) {
  const id = useId();
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...rest} />
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
