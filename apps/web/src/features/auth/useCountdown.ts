import { useCallback, useEffect, useState } from 'react';

/**
 * Whole seconds left until a moment on this device's clock, ticking once a second; 0 when passed.
 * `start(ms)` begins a new wait of `ms` milliseconds from now.
 */
export function useCountdown(): { seconds: number; start: (ms: number) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);

  const start = useCallback((ms: number) => {
    const current = Date.now();
    setNow(current);
    setUntil(current + Math.max(0, ms));
  }, []);

  return { seconds: Math.max(0, Math.ceil((until - now) / 1000)), start };
}
