import type { FeedClock } from '../../src/integrations/market-feed/price-feed.ts';

/** A clock that moves only when told to, running due timers in time order: deterministic feed tests. */
export class ManualClock implements FeedClock {
  private current: number;
  private nextHandle = 1;
  private readonly timers = new Map<number, { atMs: number; callback: () => void }>();

  constructor(startMs = Date.parse('2026-11-22T10:00:00Z')) {
    this.current = startMs;
  }

  nowMs(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { atMs: this.current + Math.max(0, delayMs), callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way (also ones set meanwhile). */
  advance(ms: number): void {
    const endMs = this.current + ms;
    for (;;) {
      let due: [number, { atMs: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].atMs <= endMs && (!due || entry[1].atMs < due[1].atMs)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = due[1].atMs;
      due[1].callback();
    }
    this.current = endMs;
  }

  get pendingTimers(): number {
    return this.timers.size;
  }
}
