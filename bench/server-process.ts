import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Server processes for the benches that measure the server as `npm start` runs it (startup-memory,
// ticks): built first, started with `npm run serve`'s node arguments, their output in files.

export const repositoryRoot = new URL('..', import.meta.url).pathname;

/** The address line a Keel server prints once it listens. */
export const keelListening = /user app\s+(http:\/\/[^/\s]+)\//;

/** `npm run serve`'s arguments to node, read from package.json so a bench runs what `npm start` runs. */
export function serveNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: { serve: string } };
  return scripts.serve.replace(/^node /, '').split(' ');
}

/** The build `npm start` makes before it serves. */
export function buildServer(): void {
  if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: repositoryRoot, stdio: 'inherit' }).status !== 0) {
    throw new Error('the server build failed');
  }
}

/**
 * Started processes whose output goes to files in one folder (as to a log collector that keeps up:
 * a pipe read by the bench while it drives the load could make a server hold its logs).
 */
export class LoggedProcesses {
  private readonly folder: string;
  private count = 0;

  constructor(name: string) {
    this.folder = mkdtempSync(join(tmpdir(), `keel-bench-${name}-logs-`));
  }

  /** Spawns node with `args`; resolves once its output matches `listening` (group 1: the base URL). */
  async start(args: string[], env: Record<string, string>, listening: RegExp): Promise<{ child: ChildProcess; baseUrl: string }> {
    this.count += 1;
    const logFile = join(this.folder, `${this.count}.log`);
    const logFd = openSync(logFile, 'w');
    const child = spawn(process.execPath, args, { cwd: repositoryRoot, env: { ...process.env, ...env }, stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before listening:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
      const baseUrl = listening.exec(readFileSync(logFile, 'utf8'))?.[1];
      if (baseUrl) return { child, baseUrl };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Removes the output files. */
  dispose(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** SIGTERM, and waits for the exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
