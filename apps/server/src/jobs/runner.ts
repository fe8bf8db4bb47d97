import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../persistence/db.ts';

export interface JobRow {
  id: bigint;
  kind: string;
  job_key: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'done' | 'failed';
  run_at: Date;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

/**
 * A job's work. It runs inside the transaction that claimed the job, on `tx`; its writes commit
 * together with the job's "done" mark or not at all. That is what makes the effect exactly-once:
 * a crash or a failure before commit leaves neither the effect nor the mark.
 */
export type JobHandler = (tx: Queryable, job: JobRow) => Promise<void>;

export interface EnqueueInput {
  kind: string;
  /** One job per key, ever; enqueueing the same key again does nothing. */
  key: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job, usually inside the transaction of the change that needs it. Returns false for a known key. */
export async function enqueueJob(db: Queryable, job: EnqueueInput): Promise<boolean> {
  // "Now" is cut to whole milliseconds: the runner compares with a JS Date (millisecond
  // precision), and a job due at 12:00:00.123456 would otherwise wait out the next poll when the
  // runner asks at 12:00:00.123.
  const rows = await db.query(
    `INSERT INTO jobs (kind, job_key, payload, run_at, max_attempts)
     VALUES ($1, $2, $3, COALESCE($4, date_trunc('milliseconds', now())), $5)
     ON CONFLICT (job_key) DO NOTHING RETURNING id`,
    [job.kind, job.key, JSON.stringify(job.payload ?? {}), job.runAt ?? null, job.maxAttempts ?? 5],
  );
  return rows.length > 0;
}

/** Delay before retry n (1-based): 2 s, 4 s, 8 s ... capped at 10 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(2_000 * 2 ** (attempt - 1), 600_000);
}

export interface JobRunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  logger?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  workerId?: string;
  pollIntervalMs?: number;
  now?: () => Date;
  retryDelay?: (attempt: number) => number;
  /**
   * Called after the transaction of a job that succeeded has committed — for what must not happen
   * before COMMIT, such as telling users' connections to refetch. Its failure is logged only.
   */
  afterCommit?: (job: JobRow) => Promise<void>;
}

/**
 * Claims due jobs one at a time with FOR UPDATE SKIP LOCKED, so any number of runners (in one
 * process or many) can share the table without running an item twice.
 */
export class JobRunner {
  private readonly options: Required<Omit<JobRunnerOptions, 'logger' | 'afterCommit'>> & Pick<JobRunnerOptions, 'logger' | 'afterCommit'>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(options: JobRunnerOptions) {
    this.options = {
      workerId: `runner-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      pollIntervalMs: 1000,
      now: () => new Date(),
      retryDelay: retryDelayMs,
      ...options,
    };
  }

  /** Claims and runs one due job. Returns false when none was due. */
  async runOne(): Promise<boolean> {
    const { db, handlers, now, workerId } = this.options;
    let succeeded: JobRow | undefined;
    const ran = await db.transaction(async (tx) => {
      const at = now();
      const [job] = await tx.query<JobRow>(
        `SELECT * FROM jobs WHERE status = 'pending' AND run_at <= $1
         ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [at],
      );
      if (!job) return false;
      const handle = handlers[job.kind];
      const attempt = job.attempts + 1;
      try {
        if (!handle) throw new Error(`no handler for job kind "${job.kind}"`);
        // A savepoint lets a failed attempt's writes be undone while the retry bookkeeping commits.
        await tx.exec('SAVEPOINT job_attempt');
        await handle(tx, job);
        await tx.exec('RELEASE SAVEPOINT job_attempt');
        await tx.query(
          `UPDATE jobs SET status = 'done', attempts = $2, done_by = $3, finished_at = $4, last_error = NULL WHERE id = $1`,
          [job.id, attempt, workerId, at],
        );
        succeeded = job;
      } catch (error) {
        if (handle) await tx.exec('ROLLBACK TO SAVEPOINT job_attempt');
        const message = error instanceof Error ? error.message : String(error);
        const giveUp = attempt >= job.max_attempts;
        this.options.logger?.warn({ jobId: job.id.toString(), kind: job.kind, attempt, giveUp, err: message }, 'job attempt failed');
        await tx.query(
          `UPDATE jobs SET attempts = $2, last_error = $3, status = $4, run_at = $5, finished_at = $6 WHERE id = $1`,
          [
            job.id,
            attempt,
            message.slice(0, 2000),
            giveUp ? 'failed' : 'pending',
            new Date(at.getTime() + this.options.retryDelay(attempt)),
            giveUp ? at : null,
          ],
        );
      }
      return true;
    });
    if (succeeded && this.options.afterCommit) {
      await this.options.afterCommit(succeeded).catch((error) => this.options.logger?.warn({ err: error, jobId: succeeded?.id.toString() }, 'job after-commit step failed'));
    }
    return ran;
  }

  /** Runs due jobs until none is due (bounded, so a flood cannot starve the caller forever). */
  async drain(maxJobs = 10_000): Promise<number> {
    let count = 0;
    while (count < maxJobs && (await this.runOne())) count += 1;
    return count;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = async () => {
      try {
        await this.drain(100);
      } catch (error) {
        this.options.logger?.error({ err: error }, 'job runner tick failed');
      }
      if (!this.stopped) this.timer = setTimeout(() => (this.running = tick()), this.options.pollIntervalMs);
    };
    this.running = tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
