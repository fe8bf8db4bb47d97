import { localeNames, type StaffContentItem } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useI18n } from '../../shared/i18n.tsx';
import { type ContentDisplayStatus, displayStatus, formatLocal, formatUtc, localTimeZone, type TranslationState, translationStates } from './content-model.ts';
import './content.css';

/** The content view's path under /admin. */
export const CONTENT_PATH = '/content';

export const stateKeys: Record<TranslationState, MessageKey> = {
  ok: 'admin.content.translation.ok',
  stale: 'admin.content.translation.stale',
  missing: 'admin.content.translation.missing',
};

/** A mark beside the language code, so the state is not told by colour alone. */
const stateMarks: Record<TranslationState, string> = { ok: '✓', stale: '!', missing: '–' };

/**
 * The 13 languages of an item as small badges, each with its state: written, written before the
 * English text last changed ("English changed since"), or missing. Each badge says its language
 * and state in words to screen readers and on hover.
 */
export function TranslationBadges({ item }: { item: Pick<StaffContentItem, 'translations' | 'missingLanguages'> }) {
  const { t } = useI18n();
  return (
    <ul className="lang-badges" aria-label={t('admin.content.translation.label')} data-testid="content-translations">
      {translationStates(item).map(({ language, state }) => {
        const said = `${localeNames[language]}: ${t(stateKeys[state])}`;
        return (
          <li key={language} className={`lang-badge lang-${state}`} title={said} data-testid={`translation-${language}`} data-state={state}>
            <span aria-hidden="true">
              {language} {stateMarks[state]}
            </span>
            <span className="visually-hidden">{said}</span>
          </li>
        );
      })}
    </ul>
  );
}

export function StateMark({ state }: { state: TranslationState }) {
  return <span aria-hidden="true">{stateMarks[state]}</span>;
}

export const statusKeys: Record<ContentDisplayStatus, MessageKey> = {
  draft: 'admin.content.status.draft',
  scheduled: 'admin.content.status.scheduled',
  published: 'admin.content.status.published',
  unpublished: 'admin.content.status.unpublished',
};

/** An item's state as a badge: draft, scheduled (a publication time still to come), published or unpublished. */
export function StatusBadge({ item, nowMs }: { item: Pick<StaffContentItem, 'status' | 'publishAtMs'>; nowMs: number }) {
  const { t } = useI18n();
  const status = displayStatus(item, nowMs);
  return (
    <span className={`status status-content-${status}`} data-testid="content-status">
      {t(statusKeys[status])}
    </span>
  );
}

/** Whether readers see the item now. */
export function LiveFlag({ live }: { live: boolean }) {
  const { t } = useI18n();
  return (
    <span className={live ? 'status status-content-live' : 'status'} data-testid="content-live">
      {t(live ? 'admin.content.live' : 'admin.content.notLive')}
    </span>
  );
}

/** A time on the member's clock with its time zone, and in UTC: "2026/12/01 09:30 (Europe/Berlin) · 2026/12/01 08:30 UTC". */
export function ZonedTime({ ms, testId }: { ms: number; testId?: string }) {
  const { t } = useI18n();
  return (
    <time dateTime={new Date(ms).toISOString()} data-testid={testId}>
      {t('admin.content.zonedTime', { local: formatLocal(ms), zone: localTimeZone(ms), utc: formatUtc(ms) })}
    </time>
  );
}

/** What kind an item is, in words. */
export function kindKey(kind: StaffContentItem['kind']): MessageKey {
  return `admin.content.kind.${kind}`;
}
