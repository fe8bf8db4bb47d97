import type { MessageKey } from '@keel/locales';
import { Fragment, type ReactNode } from 'react';
import { useI18n } from './i18n.tsx';
import { Pager } from './Pager.tsx';

/**
 * The loaded page of a staff list (from `usePagedList`): how many there are, the table and the
 * pager under it. A list with an `empty` text shows it instead of a table without rows. Nothing
 * shows before the first page has loaded.
 */
export function PagedTable<T extends { id: string }>({
  list,
  total,
  empty,
  columns,
  row,
  rowGroupTestId,
}: {
  list: { result: { items: readonly T[]; total: number } | null; page: number; pages: number; setPage: (page: number) => void };
  /** The line counting them all; its text takes the count as `total`. */
  total?: MessageKey;
  empty?: { text: MessageKey; testId: string };
  /** The column headings. */
  columns: readonly MessageKey[];
  /** One item's <tr>. */
  row: (item: T) => ReactNode;
  /** Puts each row in a <tbody> of its own with this test id, so the row answers to a second one. */
  rowGroupTestId?: (item: T) => string;
}) {
  const { t } = useI18n();
  const { result, page, pages, setPage } = list;
  if (!result) return null;
  return (
    <>
      {total && <p className="muted">{t(total, { total: result.total })}</p>}
      {empty && result.items.length === 0 ? (
        <p className="muted" data-testid={empty.testId}>
          {t(empty.text)}
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column}>{t(column)}</th>
              ))}
            </tr>
          </thead>
          {rowGroupTestId ? (
            result.items.map((item) => (
              <tbody key={item.id} data-testid={rowGroupTestId(item)}>
                {row(item)}
              </tbody>
            ))
          ) : (
            <tbody>
              {result.items.map((item) => (
                <Fragment key={item.id}>{row(item)}</Fragment>
              ))}
            </tbody>
          )}
        </table>
      )}
      <Pager page={page} pages={pages} onPage={setPage} />
    </>
  );
}
