import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveNodeArgs } from './helpers/server.ts';

// `npm start` serves the built server (ADR 0031): apps/server/dist/main.js, made by `npm run build`
// like the apps this suite drives. No browser here: this checks the bundle itself starts as a
// process, finds what it reads beside its sources (the migrations, the locale catalogues, the built
// apps), serves, and stops on SIGTERM; the other browser tests run the server from its sources.

const root = resolve(import.meta.dirname, '../..');
const bundle = resolve(root, 'apps/server/dist/main.js');
const serveArgs = serveNodeArgs();
const dataDir = mkdtempSync(join(tmpdir(), 'keel-bundle-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The built server on `dataDir` with a port of its own; resolves with its address once it says so. */
async function startBundle(): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const child = spawn(process.execPath, serveArgs, {
    cwd: root,
    // A declared demo (ADR 0041): production refuses demo data and a generated upload key otherwise.
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', SEED_DEMO: 'true', KEEL_DEMO: 'true', UPLOAD_ENCRYPTION_KEY: '', MARKET_FEED: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((settle, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /user app\s+(http:\/\/[^/\s]+)\//.exec(output);
      if (match) settle(match[1] as string);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => fail(new Error(`the built server exited (${code}) before listening:\n${output.slice(-3000)}`)));
  });
  return { child, baseUrl, output: () => output };
}

async function stopped(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((settle) => child.once('exit', (code) => settle(code)));
  child.kill('SIGTERM');
  return exited;
}

async function json(url: string): Promise<{ status: number; body: { code: number; msg: string; data: unknown } }> {
  const answer = await fetch(url);
  return { status: answer.status, body: (await answer.json()) as { code: number; msg: string; data: unknown } };
}

describe('the built server (npm start)', () => {
  it('starts on a new data folder and again on the same one, serves the API and the app, and stops on SIGTERM', async () => {
    expect(existsSync(bundle), `${bundle} is missing: run \`npm run build\` first`).toBe(true);
    let demoPassword = '';
    for (const start of ['new folder', 'existing folder']) {
      const server = await startBundle();
      try {
        const health = await json(`${server.baseUrl}/healthz`);
        expect(health, start).toEqual({ status: 200, body: { code: 200, msg: 'success', data: { status: 'ok', database: 'pglite' } } });
        if (start === 'new folder') {
          // The first start seeds the demo user and prints its password once.
          demoPassword = /Demo user \(shown once\): demo01 \/ (\S+)/.exec(server.output())?.[1] ?? '';
          expect(demoPassword, server.output()).not.toBe('');
        } else {
          // The second start found the first one's data: the demo user logs in and reads its balances.
          const login = await fetch(`${server.baseUrl}/home/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ account: 'demo01', password: demoPassword, agreement: true }),
          });
          const { data } = (await login.json()) as { data: { token: string } };
          const accounts = await fetch(`${server.baseUrl}/home/assets/accounts`, { headers: { authorization: `Bearer ${data.token}` } });
          expect(((await accounts.json()) as { code: number }).code).toBe(200);
        }
        const openApi = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
        expect(Object.keys(openApi.paths)).toContain('/home/assets/accounts');
        const page = await fetch(`${server.baseUrl}/login`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root">');
      } finally {
        expect(await stopped(server.child), server.output()).toBe(0);
      }
    }
  });
});
