import { Link, type To } from 'react-router';

/**
 * Tabs choosing which state of a queue is listed; `labelOf` names each state and `linkTo` is the
 * URL of the queue in that state (a link, so a filtered queue can be opened in a new tab or shared).
 */
export function StatusTabs<S extends string>({
  label,
  statuses,
  status,
  labelOf,
  linkTo,
}: {
  label: string;
  statuses: readonly S[];
  status: S;
  labelOf: (status: S) => string;
  linkTo: (status: S) => To;
}) {
  return (
    <div className="toolbar" role="tablist" aria-label={label}>
      {statuses.map((each) => (
        <Link key={each} role="tab" aria-selected={each === status} className={each === status ? 'tab active' : 'tab'} to={linkTo(each)}>
          {labelOf(each)}
        </Link>
      ))}
    </div>
  );
}
