import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configVariableNames } from '../../src/config/env.ts';
import { type Db, openPostgres } from '../../src/persistence/db.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { testConfig } from './test-app.ts';
import { testDbKind } from './test-db.ts';

// What the crash tests share (a job process killed by SIGKILL, then the real server started on the
// same database), and the start-up tests of production mode (ADR 0041): a database of the test's own — a PGlite data folder or a fresh PostgreSQL schema —
// the environment a server or a job process gets for it, and processes whose output is kept.

export const ROOT = resolve(import.meta.dirname, '../../../..');
const START_TIMEOUT_MS = 60_000;
export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
export const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
export const whenExited = (child: ChildProcess) => new Promise<void>((done) => (exited(child) ? done() : child.once('exit', () => done())));

export interface CrashWorld {
  /** Opens the test's database (PGlite has one owner at a time: close it before a process opens it). */
  openDb(): Promise<Db>;
  /** The environment of a server or job process on the test's database: production mode, every guard satisfied. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Starts `script` (a TypeScript file under the repository) with tsx and `args`; its output is collected. */
  spawnScript(script: string, extra?: Record<string, string>, args?: readonly string[]): { child: ChildProcess; output: string[] };
  /**
   * Starts the real server and waits until it listens (`baseUrl`), or until its output contains
   * `readyLine` (a job's line can come before the listening one).
   */
  startServer(extra: Record<string, string>, readyLine?: string): Promise<{ child: ChildProcess; output: string[]; baseUrl: string | null }>;
  /** The folder a PGlite database lives in (and the data folder of the processes). */
  dataDir: string;
  /** Kills what is still running, drops the schema, removes the folder. */
  dispose(): Promise<void>;
}

export function crashWorld(name: string): CrashWorld {
  const dataDir = mkdtempSync(join(tmpdir(), `keel-${name}-`));
  const schema = `keel_${name.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}`;
  const children: ChildProcess[] = [];
  let admin: Db | undefined;

  const env = (extra: Record<string, string> = {}) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key, value]) => value !== undefined && !configVariableNames.includes(key)));
    const database: Record<string, string> = { DATA_DIR: dataDir };
    if (testDbKind === 'postgres') {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      database.DATABASE_URL = url.toString();
    }
    return {
      ...(inherited as Record<string, string>),
      ...database,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      UPLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      MARKET_FEED: 'off',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      WEB_DIST_DIR: '/nonexistent',
      ADMIN_DIST_DIR: '/nonexistent',
      ...extra,
    };
  };

  const spawnScript = (script: string, extra: Record<string, string> = {}, args: readonly string[] = []) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    return { child, output };
  };

  return {
    async openDb() {
      if (testDbKind === 'pglite') return openConfiguredDb(testConfig({ DATA_DIR: dataDir }));
      const url = process.env.TEST_DATABASE_URL!;
      if (!admin) {
        admin = await openPostgres(url, 1);
        await admin.exec(`CREATE SCHEMA ${schema}`);
      }
      return openPostgres(url, 2, schema);
    },
    dataDir,
    env,
    spawnScript,
    async startServer(extra, readyLine) {
      const started = spawnScript('apps/server/src/main.ts', extra);
      const deadline = Date.now() + START_TIMEOUT_MS;
      for (;;) {
        const text = started.output.join('');
        const port = /user app\s+http:\/\/[^:/]+:(\d+)\//.exec(text)?.[1];
        if (port) return { ...started, baseUrl: `http://127.0.0.1:${port}` };
        if (readyLine && text.includes(readyLine)) return { ...started, baseUrl: null };
        if (exited(started.child)) throw new Error(`the server exited before listening:\n${text.slice(-3000)}`);
        if (Date.now() > deadline) throw new Error(`the server did not listen within ${START_TIMEOUT_MS} ms:\n${text.slice(-3000)}`);
        await sleep(20);
      }
    },
    async dispose() {
      for (const child of children) if (!exited(child)) child.kill('SIGKILL');
      if (admin) {
        await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
        await admin.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
