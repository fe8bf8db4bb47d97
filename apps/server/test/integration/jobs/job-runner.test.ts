import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, type JobHandler, JobRunner, retryDelayMs } from '../../../src/jobs/runner.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

// The effect of a job is a row in job_effects; a job that ran twice would leave two rows.
const recordEffect: JobHandler = async (tx, job) => {
  await tx.query('INSERT INTO job_effects (job_key) VALUES ($1)', [job.job_key]);
};

describe('durable job runner', () => {
  let t: TestDb;
  let other: Db;
  beforeAll(async () => {
    t = await createTestDb();
    other = await t.openAnother();
    await t.db.exec('CREATE TABLE job_effects (id bigint GENERATED ALWAYS AS IDENTITY, job_key text NOT NULL)');
  });
  afterAll(() => t.dispose());

  it('two runners on one database: every job runs, each exactly once', async () => {
    const jobCount = 200;
    for (let i = 0; i < jobCount; i += 1) await enqueueJob(t.db, { kind: 'effect', key: `race-${i}` });
    const runnerA = new JobRunner({ db: t.db, handlers: { effect: recordEffect }, workerId: 'A' });
    const runnerB = new JobRunner({ db: other, handlers: { effect: recordEffect }, workerId: 'B' });
    const [ranByA, ranByB] = await Promise.all([runnerA.drain(), runnerB.drain()]);
    expect(ranByA + ranByB).toBe(jobCount);
    const effects = await t.db.query<{ job_key: string; n: bigint }>(
      `SELECT job_key, count(*)::bigint AS n FROM job_effects WHERE job_key LIKE 'race-%' GROUP BY job_key`,
    );
    expect(effects).toHaveLength(jobCount);
    expect(effects.every((row) => row.n === 1n)).toBe(true);
    const pending = await t.db.query(`SELECT 1 FROM jobs WHERE job_key LIKE 'race-%' AND status <> 'done'`);
    expect(pending).toHaveLength(0);
    if (t.db.kind === 'postgres') {
      // On a real server both runners took part; PGlite is one session, so there they take turns.
      const doneBy = await t.db.query<{ done_by: string }>(`SELECT DISTINCT done_by FROM jobs WHERE job_key LIKE 'race-%'`);
      expect(doneBy.map((row) => row.done_by).sort()).toEqual(['A', 'B']);
    }
  });

  it('enqueueing a known key again does nothing', async () => {
    expect(await enqueueJob(t.db, { kind: 'effect', key: 'once-1' })).toBe(true);
    expect(await enqueueJob(t.db, { kind: 'effect', key: 'once-1' })).toBe(false);
    const runner = new JobRunner({ db: t.db, handlers: { effect: recordEffect } });
    await runner.drain();
    await enqueueJob(t.db, { kind: 'effect', key: 'once-1' });
    await runner.drain();
    expect(await t.db.query(`SELECT 1 FROM job_effects WHERE job_key = 'once-1'`)).toHaveLength(1);
  });

  it('waits for run_at', async () => {
    let nowMs = Date.parse('2030-01-01T00:00:00Z');
    await enqueueJob(t.db, { kind: 'effect', key: 'later-1', runAt: new Date(nowMs + 60_000) });
    const runner = new JobRunner({ db: t.db, handlers: { effect: recordEffect }, now: () => new Date(nowMs) });
    await runner.drain();
    expect(await t.db.query(`SELECT 1 FROM job_effects WHERE job_key = 'later-1'`)).toHaveLength(0);
    nowMs += 60_000;
    await runner.drain();
    expect(await t.db.query(`SELECT 1 FROM job_effects WHERE job_key = 'later-1'`)).toHaveLength(1);
  });

  it('retries with backoff, undoing a failed attempt, then gives up after max attempts', async () => {
    let nowMs = Date.parse('2031-01-01T00:00:00Z');
    let calls = 0;
    const flaky: JobHandler = async (tx, job) => {
      calls += 1;
      await tx.query('INSERT INTO job_effects (job_key) VALUES ($1)', [job.job_key]);
      if (calls < 3) throw new Error(`attempt ${calls} failed`);
    };
    await enqueueJob(t.db, { kind: 'flaky', key: 'flaky-1', runAt: new Date(nowMs) });
    const runner = new JobRunner({ db: t.db, handlers: { flaky }, now: () => new Date(nowMs) });
    expect(await runner.runOne()).toBe(true);
    const [afterFirst] = await t.db.query<{ attempts: number; run_at: Date; last_error: string; status: string }>(
      `SELECT attempts, run_at, last_error, status FROM jobs WHERE job_key = 'flaky-1'`,
    );
    expect(afterFirst).toMatchObject({ attempts: 1, status: 'pending', last_error: 'attempt 1 failed' });
    expect(afterFirst!.run_at.getTime()).toBe(nowMs + retryDelayMs(1));
    // Not due yet: the backoff holds it back.
    expect(await runner.runOne()).toBe(false);
    nowMs += retryDelayMs(1);
    await runner.runOne();
    nowMs += retryDelayMs(2);
    await runner.runOne();
    const [done] = await t.db.query<{ attempts: number; status: string }>(`SELECT attempts, status FROM jobs WHERE job_key = 'flaky-1'`);
    expect(done).toEqual({ attempts: 3, status: 'done' });
    // The two failed attempts left no effect behind; the successful one left exactly one.
    expect(await t.db.query(`SELECT 1 FROM job_effects WHERE job_key = 'flaky-1'`)).toHaveLength(1);

    await enqueueJob(t.db, { kind: 'never', key: 'never-1', maxAttempts: 2, runAt: new Date(nowMs) });
    const failing = new JobRunner({
      db: t.db,
      handlers: { never: async () => Promise.reject(new Error('always fails')) },
      now: () => new Date(nowMs),
      retryDelay: () => 0,
    });
    await failing.drain();
    const [failed] = await t.db.query<{ attempts: number; status: string }>(`SELECT attempts, status FROM jobs WHERE job_key = 'never-1'`);
    expect(failed).toEqual({ attempts: 2, status: 'failed' });
  });

  it('a job of an unknown kind fails without stopping the runner', async () => {
    await enqueueJob(t.db, { kind: 'no-such-kind', key: 'orphan-1', maxAttempts: 1 });
    await enqueueJob(t.db, { kind: 'effect', key: 'after-orphan' });
    await new JobRunner({ db: t.db, handlers: { effect: recordEffect } }).drain();
    const rows = await t.db.query<{ job_key: string; status: string; last_error: string | null }>(
      `SELECT job_key, status, last_error FROM jobs WHERE job_key IN ('orphan-1', 'after-orphan') ORDER BY job_key`,
    );
    expect(rows).toEqual([
      { job_key: 'after-orphan', status: 'done', last_error: null },
      { job_key: 'orphan-1', status: 'failed', last_error: 'no handler for job kind "no-such-kind"' },
    ]);
  });
});
