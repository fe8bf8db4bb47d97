/** Spec section 9: timestamps read year/month/day hour:minute:second (shown in the viewer's time zone). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A time in ms since the epoch, as `formatDateTime` shows it; `millis` adds .mmm (tick times and expiries, where they matter). */
export function formatEpochMs(ms: number, millis = false): string {
  const text = formatDateTime(new Date(ms).toISOString());
  return millis ? `${text}.${String(new Date(ms).getMilliseconds()).padStart(3, '0')}` : text;
}
