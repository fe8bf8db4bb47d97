import { describe, expect, it } from 'vitest';
import { startPeriodicPass } from './periodic-pass.ts';

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

describe('startPeriodicPass', () => {
  it('runs at once, again after each interval, never two at a time; a failed pass is logged and the next one runs', async () => {
    const errors: string[] = [];
    let running = 0;
    let overlapped = false;
    let passes = 0;
    const job = startPeriodicPass(
      async () => {
        running += 1;
        overlapped ||= running > 1;
        passes += 1;
        await sleep(15);
        running -= 1;
        if (passes === 2) throw new Error('the second pass fails');
      },
      { intervalMs: 5, logger: { error: (_object, message) => void errors.push(message) }, failure: 'test: pass failed' },
    );
    expect(passes).toBe(1);
    await expect.poll(() => passes).toBeGreaterThanOrEqual(4);
    await job.stop();
    const stoppedAt = passes;
    await sleep(50);
    expect(passes).toBe(stoppedAt);
    expect(overlapped).toBe(false);
    expect(errors).toEqual(['test: pass failed']);
  });

  it('stop waits for the pass under way', async () => {
    let finished = false;
    const job = startPeriodicPass(
      async () => {
        await sleep(30);
        finished = true;
      },
      { intervalMs: 1_000, logger: { error: () => {} }, failure: 'unused' },
    );
    await job.stop();
    expect(finished).toBe(true);
  });
});
