import { type ButtonHTMLAttributes, type ComponentPropsWithRef, createContext, type ReactNode, useContext, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useI18n } from '../i18n/I18nProvider.tsx';
import { AlertIcon, BackIcon, EyeIcon } from './shell-icons.tsx';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  busy?: boolean;
  block?: boolean;
};

export function Button({ variant = 'primary', busy = false, block = false, className, children, disabled, ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, block ? 'btn-block' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type="button" className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** An input's props, `ref` included, so react-hook-form's `register(name)` can be spread on it (ADR 0027). */
type FieldProps = Omit<ComponentPropsWithRef<'input'>, 'id'> & {
  label: string;
  error?: string;
  hint?: string;
};

/** A labelled input with its error announced to screen readers; passwords get a show/hide toggle. */
export function TextField({ label, error, hint, type = 'text', ...rest }: FieldProps) {
  const { t } = useI18n();
  const id = useId();
  const [shown, setShown] = useState(false);
  const isPassword = type === 'password';
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <input
          id={id}
          type={isPassword && shown ? 'text' : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...rest}
        />
        {isPassword && (
          <button
            type="button"
            className="field-toggle"
            aria-label={shown ? t('web.field.hidePassword') : t('web.field.showPassword')}
            aria-pressed={shown}
            onClick={() => setShown((value) => !value)}
          >
            <EyeIcon open={shown} />
          </button>
        )}
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Notice({ tone = 'info', title, children, testId }: { tone?: 'info' | 'warning' | 'error'; title?: string; children: ReactNode; testId?: string }) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'info' ? 'status' : 'alert'} data-testid={testId}>
      {tone !== 'info' && <AlertIcon />}
      <div>
        {title && <p className="notice-title">{title}</p>}
        <div className="notice-body">{children}</div>
      </div>
    </div>
  );
}

/** A load that failed, with a retry. */
export function LoadFailedNotice({ onRetry }: { onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <Notice tone="error">
      {t('web.common.loadFailed')}{' '}
      <Button variant="ghost" onClick={onRetry}>
        {t('web.common.retry')}
      </Button>
    </Notice>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <section className={className ? `card ${className}` : 'card'}>{children}</section>;
}

/** Goes back in the app's own history, or to `fallback` when the page was opened directly. */
export function useBack(fallback: string) {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(fallback, { replace: true });
  };
}

/**
 * Whether the page is inside the desktop site's frame (ADR 0048): its header menu and side menus
 * are the way around there, so a mobile part's "back" arrow, which leads to a phone page, is left out.
 */
export const InDesktopFrame = createContext(false);

/** A page title bar with an optional way back (not in the desktop frame, whose menus are the way around). */
export function PageHeader({ title, backTo }: { title: string; backTo?: string }) {
  const { t } = useI18n();
  const back = useBack(backTo ?? '/index');
  const desktop = useContext(InDesktopFrame);
  return (
    <header className="page-header">
      {backTo && !desktop && (
        <button type="button" className="page-back" aria-label={t('web.common.back')} onClick={back}>
          <BackIcon />
        </button>
      )}
      <h1>{title}</h1>
    </header>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

type SelectProps = {
  label: string;
  value: string;
  options: SelectOption[];
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  /** Shown first with an empty value, for a choice the user must make. */
  placeholder?: string;
  name?: string;
  testId?: string;
  disabled?: boolean;
};

/** A labelled native select: every platform shows its own accessible picker. */
export function SelectField({ label, value, options, onChange, error, hint, placeholder, name, testId, disabled }: SelectProps) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <select
          id={id}
          name={name}
          value={value}
          disabled={disabled}
          data-testid={testId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        >
          {placeholder !== undefined && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A row of mutually exclusive buttons (e.g. "All | Watchlist"); the pressed one is the current choice. */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string; testId?: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{label}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={option.value === value ? 'segmented-option active' : 'segmented-option'}
          aria-pressed={option.value === value}
          data-testid={option.testId}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
