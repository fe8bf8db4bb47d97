import { contentKindSchema, contentStatusSchema, listStaffContentContract, type StaffContentItem } from '@keel/contracts';
import { useState } from 'react';
import { Link, Outlet, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useRecordLinks } from '../../shared/record-route.tsx';
import { CONTENT_PATH, kindKey, LiveFlag, StatusBadge, statusKeys, TranslationBadges, ZonedTime } from './content-shared.tsx';
import { NewContentForm } from './NewContentForm.tsx';

const PAGE_SIZE = 20;

// The editor of one item is this view's record route (/admin/content/:itemId), from the same chunk.
export { ContentEditorRoute } from './ContentEditor.tsx';

/**
 * Content (issue 20, ADR 0044; role content): every item of every kind — announcements, industry
 * news, help articles, courses and lessons, the about page, home banners — filtered by kind and
 * status in the URL, newest change first, a page at a time. Each row: the English title, the kind,
 * the status (a publication time still to come is "scheduled"), whether readers see it now, and
 * each of the 13 languages' state. "New item" writes a draft with its English words; an item opens
 * in the editor at its own URL (/admin/content/12), in place of the list.
 */
export function ContentPage() {
  const { itemId } = useParams();
  if (itemId !== undefined) return <Outlet />;
  return <ContentList />;
}

function ContentList() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const { filter, setFilter, list, table } = useListQuery(listStaffContentContract, PAGE_SIZE);
  const { recordTo } = useRecordLinks(CONTENT_PATH);
  const [creating, setCreating] = useState(false);
  const nowMs = Date.now();

  return (
    <section data-testid="content-page">
      <h2>{t('admin.content.title')}</h2>
      <p className="muted">{t('admin.content.intro')}</p>
      <p className="muted" data-testid="content-audited">
        {t('admin.content.audited')}
      </p>
      <div className="toolbar content-filters">
        <label>
          {t('admin.content.filter.kind')}
          <select value={filter.kind ?? ''} onChange={(event) => setFilter({ kind: (event.target.value || undefined) as StaffContentItem['kind'] | undefined })} data-testid="content-filter-kind">
            <option value="">{t('admin.content.filter.all')}</option>
            {contentKindSchema.options.map((kind) => (
              <option key={kind} value={kind}>
                {t(kindKey(kind))}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.content.filter.status')}
          <select
            value={filter.status ?? ''}
            onChange={(event) => setFilter({ status: (event.target.value || undefined) as StaffContentItem['status'] | undefined })}
            data-testid="content-filter-status"
          >
            <option value="">{t('admin.content.filter.all')}</option>
            {contentStatusSchema.options.map((status) => (
              <option key={status} value={status}>
                {t(statusKeys[status])}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          {t('admin.content.new')}
        </button>
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.content.refresh')}
        </button>
      </div>
      <p className="muted hint">{t('admin.content.filter.scheduledHint')}</p>
      {creating && <NewContentForm onClose={() => setCreating(false)} onCreated={(item) => navigate(recordTo(item.id))} />}
      <ErrorAlert error={list.error} />
      <PagedTable<StaffContentItem>
        {...table}
        total="admin.content.total"
        empty={{ text: 'admin.content.empty', testId: 'content-empty' }}
        columns={['admin.content.col.title', 'admin.content.col.kind', 'admin.content.col.status', 'admin.content.col.translations', 'admin.content.col.updated']}
        row={(item) => (
          <tr data-testid={`content-row-${item.id}`}>
            <td>
              <Link to={recordTo(item.id)} data-testid="content-title">
                {item.title || t('admin.content.untitled')}
              </Link>
              <div className="muted">#{item.id}</div>
            </td>
            <td data-testid="content-kind">
              {t(kindKey(item.kind))}
              {item.category && <div className="muted">{t(`admin.content.category.${item.category}`)}</div>}
              {item.sample && <div className="muted">{t('admin.content.sampleMark')}</div>}
            </td>
            <td>
              <div className="row start">
                <StatusBadge item={item} nowMs={nowMs} />
                <LiveFlag live={item.live} />
              </div>
              {item.publishAtMs !== null && item.status === 'published' && (
                <div className="muted">
                  <ZonedTime ms={item.publishAtMs} />
                </div>
              )}
            </td>
            <td>
              <TranslationBadges item={item} />
            </td>
            <td>{formatEpochMs(item.updatedAtMs)}</td>
          </tr>
        )}
      />
    </section>
  );
}
