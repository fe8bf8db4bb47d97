import type { MessageKey } from '@keel/locales';
import { Fragment, type ReactNode } from 'react';
import { useI18n } from './i18n.tsx';
import { Pager } from './Pager.tsx';

/**
 * The loaded page of a staff list (a list query's data): how many there are, the table and the
 * pager under it. A list with an `empty` text shows it instead of a table without rows. Nothing
 * shows before the first page has loaded. The page is the URL's (`useUrlFilter`).
 */
export function PagedTable<T>({
  result,
  page,
  pageSize,
  onPage,
  total,
  empty,
  columns,
  row,
  rowKey = (item) => (item as { id: string }).id,
  rowGroupTestId,
}: {
  result: { items: readonly T[]; total: number } | undefined;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** The line counting them all; its text takes the count as `total`. */
  total?: MessageKey;
  empty?: { text: MessageKey; testId: string };
  /** The column headings. */
  columns: readonly MessageKey[];
  /** One item's <tr>. */
  row: (item: T) => ReactNode;
  /** What tells the rows apart: the item's `id` unless said otherwise. */
  rowKey?: (item: T) => string;
  /** Puts each row in a <tbody> of its own with this test id, so the row answers to a second one. */
  rowGroupTestId?: (item: T) => string;
}) {
  const { t } = useI18n();
  if (!result) return null;
  const pages = Math.max(1, Math.ceil(result.total / pageSize));
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
              <tbody key={rowKey(item)} data-testid={rowGroupTestId(item)}>
                {row(item)}
              </tbody>
            ))
          ) : (
            <tbody>
              {result.items.map((item) => (
                <Fragment key={rowKey(item)}>{row(item)}</Fragment>
              ))}
            </tbody>
          )}
        </table>
      )}
      <Pager page={page} pages={pages} onPage={onPage} />
    </>
  );
}
