import { ApiError, contactMethodKinds, setContactMethodsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useSecurity } from './useSecurity.ts';

type Kind = (typeof contactMethodKinds)[number];
interface Row {
  key: number;
  kind: Kind;
  value: string;
}

const MAX_METHODS = 5;
const kindKeys: Record<Kind, MessageKey> = {
  phone: 'web.settings.contactKind.phone',
  email: 'web.settings.contactKind.email',
  telegram: 'web.settings.contactKind.telegram',
  whatsapp: 'web.settings.contactKind.whatsapp',
  wechat: 'web.settings.contactKind.wechat',
  line: 'web.settings.contactKind.line',
  other: 'web.settings.contactKind.other',
};

/** The contract's rule for a contact value: 2–64 characters, no control characters or angle brackets. */
export function contactValueOk(value: string): boolean {
  const text = value.trim();
  return text.length >= 2 && text.length <= 64 && /^[^\p{Cc}<>]+$/u.test(text);
}

function MethodRow({ row, index, onChange, onRemove, invalid }: { row: Row; index: number; onChange: (row: Row) => void; onRemove: () => void; invalid: boolean }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="contact-method-row" data-testid={`contact-row-${index}`}>
      <div className="field">
        <label htmlFor={`${id}-kind`}>{t('web.settings.contactKindLabel', { number: index + 1 })}</label>
        <select id={`${id}-kind`} value={row.kind} onChange={(event) => onChange({ ...row, kind: event.target.value as Kind })}>
          {contactMethodKinds.map((kind) => (
            <option key={kind} value={kind}>
              {t(kindKeys[kind])}
            </option>
          ))}
        </select>
      </div>
      <div className={invalid ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-value`}>{t('web.settings.contactValue', { number: index + 1 })}</label>
        <div className="field-control">
          <input
            id={`${id}-value`}
            value={row.value}
            maxLength={64}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${id}-error` : undefined}
            onChange={(event) => onChange({ ...row, value: event.target.value })}
          />
        </div>
      </div>
      <Button variant="ghost" className="btn-small" onClick={onRemove} aria-label={t('web.settings.contactRemove', { number: index + 1 })}>
        ✕
      </Button>
      {invalid && (
        <p className="field-error" id={`${id}-error`} role="alert" style={{ gridColumn: '1 / -1' }}>
          {t('web.settings.contactValueFormat')}
        </p>
      )}
    </div>
  );
}

/** /safeSetting/contact: up to five ways P2P trade partners can reach the user. */
export function ContactMethodsForm() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const { overview, failed, reload } = useSecurity();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [nextKey, setNextKey] = useState(1);
  const [checked, setChecked] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (overview && rows === null) {
      setRows(overview.contactMethods.map((method, index) => ({ key: index + 1000, ...method })));
    }
  }, [overview, rows]);

  if (failed) return <LoadFailedNotice onRetry={reload} />;
  if (!rows) return <p className="muted">{t('web.common.loading')}</p>;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!rows) return;
    setChecked(true);
    setFormError(null);
    if (rows.some((row) => !contactValueOk(row.value))) return;
    setBusy(true);
    try {
      const saved = await api(setContactMethodsContract, { body: { methods: rows.map(({ kind, value }) => ({ kind, value: value.trim() })) } });
      setRows(saved.methods.map((method, index) => ({ key: nextKey + index, ...method })));
      setNextKey((value) => value + saved.methods.length);
      setChecked(false);
      toast(t('web.settings.contactSaved'));
    } catch (error) {
      if (isSessionError(error)) return;
      setFormError(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate>
      <p className="muted">{t('web.settings.contactIntro')}</p>
      {formError && (
        <Notice tone="error" testId="form-error">
          {formError}
        </Notice>
      )}
      {rows.length === 0 && <p data-testid="contact-empty">{t('web.settings.contactNone')}</p>}
      {rows.map((row, index) => (
        <MethodRow
          key={row.key}
          row={row}
          index={index}
          invalid={checked && !contactValueOk(row.value)}
          onChange={(next) => setRows(rows.map((each) => (each.key === row.key ? next : each)))}
          onRemove={() => setRows(rows.filter((each) => each.key !== row.key))}
        />
      ))}
      <Button
        variant="secondary"
        disabled={rows.length >= MAX_METHODS}
        onClick={() => {
          setRows([...rows, { key: nextKey, kind: 'telegram', value: '' }]);
          setNextKey(nextKey + 1);
        }}
        data-testid="contact-add"
      >
        {t('web.settings.contactAdd')}
      </Button>
      {rows.length >= MAX_METHODS && <p className="muted">{t('web.settings.contactMax', { max: MAX_METHODS })}</p>}
      <Button type="submit" block busy={busy} data-testid="contact-submit">
        {t('web.settings.save')}
      </Button>
    </form>
  );
}
