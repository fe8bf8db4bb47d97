/** Tabs choosing which state of a queue is listed; `labelOf` names each state. */
export function StatusTabs<S extends string>({
  label,
  statuses,
  status,
  labelOf,
  onChange,
}: {
  label: string;
  statuses: readonly S[];
  status: S;
  labelOf: (status: S) => string;
  onChange: (status: S) => void;
}) {
  return (
    <div className="toolbar" role="tablist" aria-label={label}>
      {statuses.map((each) => (
        <button
          key={each}
          type="button"
          role="tab"
          aria-selected={each === status}
          className={each === status ? 'tab active' : 'tab'}
          onClick={() => onChange(each)}
        >
          {labelOf(each)}
        </button>
      ))}
    </div>
  );
}
