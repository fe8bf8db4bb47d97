import type { ContentSummary } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { PagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LoadFailedNotice } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { ContentRows } from './ContentParts.tsx';
import { type HelpCategory, type ListedKind, useContentList } from './useContent.ts';

/** The help centre's category names (`web.content.category.<category>`). */
export const categoryKeys: Record<HelpCategory, MessageKey> = {
  getting_started: 'web.content.category.getting_started',
  account_security: 'web.content.category.account_security',
  wallet: 'web.content.category.wallet',
  trading: 'web.content.category.trading',
  earn_loans: 'web.content.category.earn_loans',
  fees_limits: 'web.content.category.fees_limits',
};

/** A page of a paged content list (`?page=`), with its empty words and the pager. */
export function PagedContentRows({
  list,
  empty,
  showDate,
  testId = 'content-list',
  label,
}: {
  list: PagedQuery<ContentSummary>;
  empty: string;
  showDate?: boolean;
  testId?: string;
  label?: string;
}) {
  const { t } = useI18n();
  return (
    <>
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : list.data.items.length === 0 ? (
        <p className="muted" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <ContentRows items={list.data.items} showDate={showDate} testId={testId} label={label} />
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix={testId} />}
    </>
  );
}

/** Every published item of a kind, newest first (courses in their order), a page at a time. */
export function ContentKindList({ kind, empty, label }: { kind: ListedKind; empty: MessageKey; label: MessageKey }) {
  const { t } = useI18n();
  const list = useContentList(kind);
  return <PagedContentRows list={list} empty={t(empty)} showDate={kind === 'announcement' || kind === 'industry_news'} label={t(label)} />;
}
