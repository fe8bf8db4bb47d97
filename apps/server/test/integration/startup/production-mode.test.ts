import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashWorld, whenExited } from '../../helpers/crash-server.ts';
import { testDbKind } from '../../helpers/test-db.ts';

// Issue 22, production mode (ADR 0041): with NODE_ENV=production the real server (main.ts, started
// as a process) refuses to start, in one line saying why, when the market feed is the simulator,
// when demo data would be seeded or when the upload key would be generated next to the uploads —
// unless the deployment declares itself a demo (KEEL_DEMO=true). `world.env()` is production with
// every guard satisfied; each test breaks one. One data folder (or PostgreSQL schema) for the file.

const world = crashWorld('production-mode');
// Opening it once makes the database (on PostgreSQL, the schema the processes' search_path names).
beforeAll(async () => (await world.openDb()).close());
afterAll(() => world.dispose());

/** Starts the server with `extra` and waits for it to exit; what it printed, trimmed. */
async function refusedStart(extra: Record<string, string>) {
  const started = world.spawnScript('apps/server/src/main.ts', extra);
  await whenExited(started.child);
  return { code: started.child.exitCode, output: started.output.join('').trim() };
}

async function stop(child: Parameters<typeof whenExited>[0]) {
  child.kill('SIGTERM');
  await whenExited(child);
}

async function data(url: string): Promise<unknown> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: unknown }).data;
}

describe('production mode refuses to start', () => {
  it('with the simulator as market feed (set, or the default)', async () => {
    for (const feed of ['simulator', '']) {
      const { code, output } = await refusedStart({ MARKET_FEED: feed });
      expect(code, output).toBe(1);
      expect(output.split('\n'), output).toHaveLength(1);
      expect(output).toMatch(/^invalid configuration: MARKET_FEED: .*refused in production; set MARKET_FEED=ccxt or MARKET_FEED=off, or KEEL_DEMO=true/);
    }
  });

  it('with demo data to seed (set, or the default)', async () => {
    for (const seed of ['true', '']) {
      const { code, output } = await refusedStart({ SEED_DEMO: seed });
      expect(code, output).toBe(1);
      expect(output.split('\n'), output).toHaveLength(1);
      expect(output).toMatch(/^invalid configuration: SEED_DEMO: .*first staff password.*set SEED_DEMO=false .*npm run staff:first/);
    }
  });

  it('without an upload key, which would be generated in DATA_DIR next to the uploads', async () => {
    const { code, output } = await refusedStart({ UPLOAD_ENCRYPTION_KEY: '' });
    expect(code, output).toBe(1);
    expect(output.split('\n'), output).toHaveLength(1);
    expect(output).toMatch(/^invalid configuration: UPLOAD_ENCRYPTION_KEY: .*next to the uploads.*set UPLOAD_ENCRYPTION_KEY/);
    // Refused before anything was written: no key beside the (absent) uploads.
    expect(existsSync(join(world.dataDir, 'upload-encryption.key'))).toBe(false);
  });
});

describe('production mode starts', () => {
  it('with every guard satisfied: no feed, no demo data, an upload key; not a demo', async () => {
    const server = await world.startServer({});
    try {
      expect(await data(`${server.baseUrl}/healthz`)).toEqual({ status: 'ok', database: testDbKind });
      expect(await data(`${server.baseUrl}/home/index/site`)).toEqual({ demo: false });
      const output = server.output.join('');
      expect(output).not.toContain('First staff account');
      expect(output).not.toContain('Demo user');
    } finally {
      await stop(server.child);
    }
    expect(existsSync(join(world.dataDir, 'upload-encryption.key'))).toBe(false);
  });

  it('as a declared demo (KEEL_DEMO=true) despite the simulator, the seed and a generated key, and says so; no staff password in its log', async () => {
    const server = await world.startServer({ KEEL_DEMO: 'true', MARKET_FEED: 'simulator', SEED_DEMO: 'true', UPLOAD_ENCRYPTION_KEY: '' });
    try {
      expect(await data(`${server.baseUrl}/healthz`)).toMatchObject({ status: 'ok' });
      expect(await data(`${server.baseUrl}/home/index/site`)).toEqual({ demo: true });
      const output = server.output.join('');
      // The seed ran: the first admin exists, and its one-time password is not what the log shows.
      expect(output).toContain('First staff account created: admin; its password is not printed in production');
      expect(output).toContain('npm run staff:reset -- admin');
      expect(output).not.toMatch(/First staff account \(shown once\)/);
      expect(output).toMatch(/Demo user \(shown once\): demo01 \/ \S+/);
      expect(output).toContain('a demo deployment (KEEL_DEMO=true)');
    } finally {
      await stop(server.child);
    }
    expect(existsSync(join(world.dataDir, 'upload-encryption.key'))).toBe(true);
  });
});
