import { type KeyboardEvent, useRef } from 'react';

export interface ChannelTab<V extends string> {
  value: V;
  label: string;
}

/**
 * A small tab list (phone / e-mail / username) following the WAI-ARIA tabs pattern: arrow keys move
 * between tabs (mirrored in right-to-left), the selected tab is the only one in the tab order.
 */
export function ChannelTabs<V extends string>({
  tabs,
  value,
  onChange,
  label,
  idPrefix,
}: {
  tabs: ChannelTab<V>[];
  value: V;
  onChange: (value: V) => void;
  label: string;
  idPrefix: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const rtl = document.documentElement.dir === 'rtl';
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const backward = rtl ? 'ArrowRight' : 'ArrowLeft';
    let next = -1;
    if (event.key === forward) next = (index + 1) % tabs.length;
    else if (event.key === backward) next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    onChange(tabs[next]!.value);
    refs.current[next]?.focus();
  }
  return (
    <div className="channel-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab, index) => {
        const selected = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.value}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={selected ? 0 : -1}
            className={selected ? 'channel-tab active' : 'channel-tab'}
            data-testid={`${idPrefix}-tab-${tab.value}`}
            onClick={() => onChange(tab.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
