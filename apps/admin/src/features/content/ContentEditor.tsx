import {
  getStaffContentContract,
  type LocaleCode,
  listStaffContentContract,
  localeCodes,
  localeNames,
  publishContentContract,
  type StaffContentDetail,
  unpublishContentContract,
  updateContentContract,
} from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { RecordRoute, useRecordLinks } from '../../shared/record-route.tsx';
import { contentResolver, settingsFormSchema } from './content-form.ts';
import {
  displayStatus,
  epochMsToLocalInput,
  formatLocal,
  formatUtc,
  localInputToEpochMs,
  localTimeZone,
  placeRefusal,
  type SettingsFormValues,
  scheduleProblem,
  settingsForKind,
  settingsFormValues,
  settingsOf,
  translationStates,
} from './content-model.ts';
import { CONTENT_PATH, kindKey, LiveFlag, StateMark, StatusBadge, stateKeys, ZonedTime } from './content-shared.tsx';
import { SettingsFields } from './SettingsFields.tsx';
import { TranslationEditor } from './TranslationEditor.tsx';

/** Every change answers the item as it now is: the editor draws it at once, and the list is read again. */
export function useItemChange<C extends typeof updateContentContract | typeof publishContentContract | typeof unpublishContentContract>(contract: C) {
  const client = useQueryClient();
  return useContractMutation(contract, {
    invalidates: [listStaffContentContract],
    onSuccess: (data) => {
      const item = data as StaffContentDetail;
      client.setQueryData(contractKey(getStaffContentContract, { params: { itemId: item.id } }), item);
    },
  });
}

/** /admin/content/:itemId: the item read by its URL (not found, not allowed or loading until then). */
export function ContentEditorRoute() {
  const { close } = useRecordLinks(CONTENT_PATH);
  return (
    <RecordRoute read={{ contract: getStaffContentContract, param: 'itemId' }} onClose={close}>
      {(item) => <ContentEditor item={item} />}
    </RecordRoute>
  );
}

const isLocale = (value: string | null): value is LocaleCode => value !== null && (localeCodes as readonly string[]).includes(value);

/**
 * The editor of one item (issue 20, ADR 0044): its publication (publish now, schedule at a time
 * on the member's clock — shown with its time zone and in UTC — or unpublish, each after a
 * confirmation), its settings, and its words in each of the 13 languages: a switcher with each
 * language's state, the title, summary and Markdown body of the chosen one with save and (not for
 * English) remove, an image upload that writes its Markdown at the cursor, and beside them the
 * preview as a phone shows it. The chosen language is in the URL (`?lang=de`). Every change is an
 * audit entry.
 */
export function ContentEditor({ item }: { item: StaffContentDetail }) {
  const { t } = useI18n();
  const [search] = useSearchParams();
  const { close } = useRecordLinks(CONTENT_PATH);
  const navigate = useNavigate();
  // Typed words not yet saved are not dropped by a click elsewhere: leaving them asks first.
  const [dirty, setDirty] = useState(false);
  const [leaving, setLeaving] = useState<{ search: string } | 'list' | null>(null);
  useEffect(() => {
    if (!dirty) return;
    // Closing or reloading the tab: the browser asks in its own words.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const wanted = search.get('lang');
  const language: LocaleCode = isLocale(wanted) ? wanted : 'en';
  const nowMs = Date.now();
  const english = item.texts.find((text) => text.language === 'en');

  const languageTo = (code: LocaleCode) => {
    const next = new URLSearchParams(search);
    if (code === 'en') next.delete('lang');
    else next.set('lang', code);
    const text = next.toString();
    return text ? `?${text}` : '';
  };

  return (
    <section className="content-editor" data-testid="content-editor">
      <div className="row spread">
        <h2>
          {t('admin.content.editor.title', { title: english?.title || t('admin.content.untitled'), id: item.id })}
        </h2>
        <button type="button" className="secondary" onClick={() => (dirty ? setLeaving('list') : close())} data-testid="content-back">
          {t('admin.content.editor.back')}
        </button>
      </div>
      <p className="muted">
        {t(kindKey(item.kind))} · {t('admin.content.editor.updated', { time: formatEpochMs(item.updatedAtMs) })}
      </p>
      <p className="muted" data-testid="content-audited">
        {t('admin.content.audited')}
      </p>
      <PublishPanel item={item} nowMs={nowMs} />
      <SettingsCard item={item} />
      <section className="card" aria-labelledby="content-languages-title">
        <h3 id="content-languages-title">{t('admin.content.languages.title')}</h3>
        <p className="muted">{t('admin.content.languages.intro')}</p>
        <nav className="lang-switcher" aria-label={t('admin.content.languages.switcher')} data-testid="content-languages">
          {translationStates(item).map(({ language: code, state }) => (
            <Link
              key={code}
              to={{ search: languageTo(code) }}
              replace
              className={`lang-${state}`}
              aria-current={code === language ? 'page' : undefined}
              data-testid={`content-lang-${code}`}
              data-state={state}
              preventScrollReset
              onClick={(event) => {
                if (!dirty || code === language) return;
                event.preventDefault();
                setLeaving({ search: languageTo(code) });
              }}
            >
              <span lang={code}>{localeNames[code]}</span>
              <span className={`lang-badge lang-${state}`}>
                <StateMark state={state} /> {t(stateKeys[state])}
              </span>
            </Link>
          ))}
        </nav>
        <TranslationEditor key={language} item={item} language={language} onDirtyChange={setDirty} />
      </section>
      {leaving && (
        <ConfirmDialog
          title={t('admin.content.leave.title')}
          text={t('admin.content.leave.text', { language: localeNames[language] })}
          confirmLabel={t('admin.content.leave.confirm')}
          danger
          busy={false}
          error={null}
          onConfirm={() => {
            setDirty(false);
            setLeaving(null);
            if (leaving === 'list') close();
            else navigate({ search: leaving.search }, { replace: true, preventScrollReset: true });
          }}
          onCancel={() => setLeaving(null)}
          testId="content-leave"
        />
      )}
    </section>
  );
}

type Confirming = { action: 'publish' } | { action: 'schedule'; atMs: number } | { action: 'unpublish' } | null;

/**
 * Publication: the state (draft, scheduled with its time, published since, unpublished), whether
 * readers see it now, and the three actions, each confirmed in a dialog saying what it does. A
 * schedule is typed on the member's clock (`datetime-local`) and shown with their time zone and
 * in UTC before it is sent; a time already past is refused here (the server would publish at once).
 */
function PublishPanel({ item, nowMs }: { item: StaffContentDetail; nowMs: number }) {
  const { t } = useI18n();
  const publish = useItemChange(publishContentContract);
  const unpublish = useItemChange(unpublishContentContract);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [scheduleAt, setScheduleAt] = useState(() => epochMsToLocalInput(item.publishAtMs !== null && item.publishAtMs > nowMs ? item.publishAtMs : nowMs + 3_600_000));
  const [scheduleTried, setScheduleTried] = useState(false);
  const status = displayStatus(item, nowMs);
  const title = item.texts.find((text) => text.language === 'en')?.title ?? '';
  const scheduledMs = localInputToEpochMs(scheduleAt);
  const problem = scheduleProblem(scheduleAt, nowMs);
  const zone = localTimeZone(scheduledMs ?? nowMs);
  const missing = item.missingLanguages.length;

  const confirm = () => {
    if (!confirming) return;
    const params = { itemId: item.id };
    const done = (text: string) => () => {
      setConfirming(null);
      setNotice(text);
    };
    if (confirming.action === 'unpublish') unpublish.mutate({ params }, { onSuccess: done(t('admin.content.publish.unpublished')) });
    else if (confirming.action === 'publish') publish.mutate({ params, body: { publishAtMs: null } }, { onSuccess: done(t('admin.content.publish.published')) });
    else {
      const at = confirming.atMs;
      publish.mutate({ params, body: { publishAtMs: at } }, { onSuccess: done(t('admin.content.publish.scheduled', { local: formatLocal(at), zone: localTimeZone(at), utc: formatUtc(at) })) });
    }
  };

  const dialogText = (): { title: string; text: string; label: string } => {
    if (confirming?.action === 'unpublish') {
      return {
        title: t('admin.content.publish.confirmUnpublishTitle'),
        text: t(status === 'scheduled' ? 'admin.content.publish.confirmCancelSchedule' : 'admin.content.publish.confirmUnpublish', { title }),
        label: t('admin.content.publish.unpublish'),
      };
    }
    const fallback = missing > 0 ? ` ${t('admin.content.publish.missingNote', { count: missing })}` : '';
    if (confirming?.action === 'schedule') {
      const at = confirming.atMs;
      return {
        title: t('admin.content.publish.confirmScheduleTitle'),
        text: `${t('admin.content.publish.confirmSchedule', { title, local: formatLocal(at), zone: localTimeZone(at), utc: formatUtc(at) })}${fallback}`,
        label: t('admin.content.publish.schedule'),
      };
    }
    return { title: t('admin.content.publish.confirmPublishTitle'), text: `${t('admin.content.publish.confirmPublish', { title })}${fallback}`, label: t('admin.content.publish.now') };
  };

  const dialog = confirming ? dialogText() : null;

  return (
    <section className="card" aria-labelledby="content-publish-title" data-testid="content-publish">
      <h3 id="content-publish-title">{t('admin.content.publish.title')}</h3>
      <div className="row start">
        <StatusBadge item={item} nowMs={nowMs} />
        <LiveFlag live={item.live} />
      </div>
      <p data-testid="content-publish-state">
        {status === 'draft' && t('admin.content.publish.stateDraft')}
        {status === 'unpublished' && t('admin.content.publish.stateUnpublished')}
        {status === 'scheduled' && item.publishAtMs !== null && (
          <>
            {t('admin.content.publish.stateScheduled')} <ZonedTime ms={item.publishAtMs} testId="content-publish-at" />
          </>
        )}
        {status === 'published' && item.publishAtMs !== null && (
          <>
            {t('admin.content.publish.statePublished')} <ZonedTime ms={item.publishAtMs} testId="content-publish-at" />
          </>
        )}
      </p>
      {missing > 0 && <p className="muted">{t('admin.content.publish.missingNote', { count: missing })}</p>}
      {notice && (
        <p className="notice" role="status" data-testid="content-publish-notice">
          {notice}
        </p>
      )}
      <div className="row start">
        {!item.live && (
          <button
            type="button"
            onClick={() => {
              setNotice(null);
              setConfirming({ action: 'publish' });
            }}
          >
            {t('admin.content.publish.now')}
          </button>
        )}
        {item.status === 'published' && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setNotice(null);
              setConfirming({ action: 'unpublish' });
            }}
          >
            {status === 'scheduled' ? t('admin.content.publish.cancelSchedule') : t('admin.content.publish.unpublish')}
          </button>
        )}
      </div>
      <form
        className="row start"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setScheduleTried(true);
          setNotice(null);
          if (problem === null && scheduledMs !== null) setConfirming({ action: 'schedule', atMs: scheduledMs });
        }}
      >
        <div className="form-field">
          <label htmlFor="content-schedule-at">{t('admin.content.publish.at', { zone })}</label>
          <input
            id="content-schedule-at"
            type="datetime-local"
            value={scheduleAt}
            onChange={(event) => setScheduleAt(event.target.value)}
            aria-describedby="content-schedule-hint content-schedule-error"
            aria-invalid={scheduleTried && problem ? true : undefined}
          />
          <p className="muted hint" id="content-schedule-hint" data-testid="content-schedule-utc">
            {scheduledMs === null ? t('admin.content.publish.atHint') : t('admin.content.publish.inUtc', { utc: formatUtc(scheduledMs) })}
          </p>
          {scheduleTried && problem && (
            <p className="error field-error" role="alert" id="content-schedule-error">
              {t(problem === 'past' ? 'admin.content.publish.pastTime' : 'admin.content.publish.noTime')}
            </p>
          )}
        </div>
        <button type="submit" className="secondary">
          {item.status === 'published' ? t('admin.content.publish.reschedule') : t('admin.content.publish.schedule')}
        </button>
      </form>
      {dialog && (
        <ConfirmDialog
          title={dialog.title}
          text={dialog.text}
          confirmLabel={dialog.label}
          danger={confirming?.action === 'unpublish'}
          busy={publish.isPending || unpublish.isPending}
          error={confirming?.action === 'unpublish' ? unpublish.error : publish.error}
          onConfirm={confirm}
          onCancel={() => {
            setConfirming(null);
            publish.reset();
            unpublish.reset();
          }}
          testId="content-confirm"
        />
      )}
    </section>
  );
}

type SettingsValues = z.input<typeof settingsFormSchema>;
type SettingsOutput = z.output<typeof settingsFormSchema>;
const settingFields = ['category', 'parentId', 'sortOrder', 'marketSymbols', 'linkPath', 'sample'];

/** The language-independent settings of the item's kind (`updateContentContract`), when it has any. */
function SettingsCard({ item }: { item: StaffContentDetail }) {
  const { t } = useI18n();
  const update = useItemChange(updateContentContract);
  const [saved, setSaved] = useState(false);
  const form = useForm<SettingsValues, unknown, SettingsOutput>({ defaultValues: settingsFormValues(item), resolver: contentResolver(settingsFormSchema) });
  if (settingsOf(item.kind).length === 0) return null;

  const submit = form.handleSubmit((settings) => {
    setSaved(false);
    update.mutate(
      { params: { itemId: item.id }, body: settingsForKind(item.kind, settings) },
      {
        onSuccess: (next) => {
          setSaved(true);
          form.reset(settingsFormValues(next));
        },
        onError: (error) => {
          for (const placed of placeRefusal(error, settingFields)) {
            form.setError(placed.field as keyof SettingsValues, { type: 'server', message: placed.message }, { shouldFocus: true });
          }
        },
      },
    );
  });

  return (
    <section className="card" aria-labelledby="content-settings-title" data-testid="content-settings">
      <h3 id="content-settings-title">{t('admin.content.settings.title')}</h3>
      <form onSubmit={submit} noValidate>
        <SettingsFields kind={item.kind} idPrefix="content-settings" register={form.register} errors={form.formState.errors as FieldErrors<SettingsFormValues>} excludeId={item.id} />
        {saved && (
          <p className="notice" role="status" data-testid="content-settings-saved">
            {t('admin.content.settings.saved')}
          </p>
        )}
        <ErrorAlert error={update.error} />
        <div className="row start">
          <button type="submit" disabled={update.isPending}>
            {t('admin.content.settings.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
