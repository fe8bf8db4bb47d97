// Lighthouse on the user app (issue 14): `/login`, and logged in `/index` and `/trade`, with
// Lighthouse's default (mobile) preset; with `--preset desktop` (issue 21) the desktop site's
// `/web/index/index` and `/web/trade/FuturesTrading`, logged in, with Lighthouse's desktop preset — a phone screen, simulated slow 4G (150 ms RTT, 1.6 Mbit/s)
// and a 4× slower CPU — in Debian's Chromium (/usr/bin/chromium, CHROMIUM_PATH overrides).
//
// The server is the real one: `node --import tsx apps/server/src/main.ts` on a fresh embedded
// PGlite in a temporary DATA_DIR with the demo seed; the logged-in pages use the demo user's
// session (the password main.ts prints once), put into the device's localStorage as a login
// would. Every run is a fresh browser profile (cold HTTP cache), so each figure is a first visit.
//
// `--root <dir>` measures another checkout (the BEFORE figures: a `git worktree` of an older
// commit, see bench/README.md); `--label <name>` names the result file
// (bench/results/lighthouse-<label>.json, default `current`); `--runs <n>` (or
// BENCH_LIGHTHOUSE_RUNS, default 3) runs per page, the median by performance score is reported;
// `--no-build` uses the checkout's existing build instead of running `npm run build` first;
// `--reports <dir>` also keeps each run's full Lighthouse report (JSON) and its trace there, to see where time goes.
// Exits 1 when a target is missed (performance ≥ 90, LCP ≤ 2.5 s, accessibility ≥ 95, best
// practices ≥ 95). `npm run bench:lighthouse`; never part of `npm test`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { loadAverage } from './machine.ts';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string' },
    label: { type: 'string' },
    runs: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    reports: { type: 'string' },
    // A comma-separated subset of the pages below (e.g. `--pages /index`), for quick comparisons.
    pages: { type: 'string' },
    // `desktop`: Lighthouse's desktop preset (1,350 px screen, 40 ms RTT, 10 Mbit/s, no CPU
    // slowdown) on the desktop site's pages (issue 21); default: the mobile preset on the phone pages.
    preset: { type: 'string', default: 'mobile' },
  },
});
const repoRoot = resolve(import.meta.dirname, '..');
const root = resolve(args.root ?? repoRoot);
const runs = Number(args.runs ?? process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const lighthouseTargets = { performance: 90, lcpMs: 2500, accessibility: 95, bestPractices: 95 } as const;

const desktop = args.preset === 'desktop';
// The result file's name: `current` (mobile) and `desktop` unless --label says otherwise.
const label = args.label ?? (desktop ? 'desktop' : 'current');
if (!desktop && args.preset !== 'mobile') throw new Error(`--preset is mobile or desktop, not ${args.preset}`);
const allPages: readonly { path: string; loggedIn: boolean }[] = desktop
  ? [
      { path: '/web/index/index', loggedIn: true },
      { path: '/web/trade/FuturesTrading', loggedIn: true },
    ]
  : [
      { path: '/login', loggedIn: false },
      { path: '/index', loggedIn: true },
      { path: '/trade', loggedIn: true },
    ];
const pages = args.pages ? allPages.filter((page) => args.pages!.split(',').includes(page.path)) : allPages;

/** A free TCP port on the loopback, for Chromium's remote-debugging endpoint. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

interface RunningServer {
  baseUrl: string;
  demoUser: { username: string; password: string } | null;
  child: ChildProcess;
}

/** main.ts of the checkout on a fresh PGlite; resolves once it prints where it listens. */
function startKeel(dataDir: string): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    // Demo data and the simulator: production runs them only as a declared demo (ADR 0041), whose pages show the demo banner.
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', KEEL_DEMO: 'true', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start within 120 s:\n${output.slice(-3000)}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /user app\s+(http:\/\/[^/\s]+)\//.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      const demo = /Demo user \(shown once\): (\S+) \/ (\S+)/.exec(output);
      done({ baseUrl: listening[1]!, demoUser: demo ? { username: demo[1]!, password: demo[2]! } : null, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(new Error(`the server exited (${code}) before listening:\n${output.slice(-3000)}`)));
  });
}

/** A session as the app keeps it after a login: the demo user, else a newly registered one. */
async function logIn(server: RunningServer): Promise<{ token: string; userId: string }> {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await response.json()) as { code: number; msg: string; data: { token: string; userId: string } };
  };
  const answer = server.demoUser
    ? await call('/home/auth/login', { account: server.demoUser.username, password: server.demoUser.password, agreement: true })
    : await call('/home/auth/register', { username: `bench${Date.now().toString(36)}`, password: 'benchpass1', confirmPassword: 'benchpass1', agreement: true });
  if (answer.code !== 200) throw new Error(`could not log in for the bench: ${answer.msg}`);
  return { token: answer.data.token, userId: answer.data.userId };
}

interface PageRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  cls: number;
  totalTransferKB: number;
  scriptTransferKB: number;
  /** Audits of the accessibility and best-practices categories that did not pass, with their titles. */
  failedAudits: { id: string; title: string; category: string }[];
  /** What the page logged as errors (the CSP report shows here), as Lighthouse saw it. */
  consoleErrors: string[];
  /** What Chromium's Issues panel listed (a CSP violation is one), by kind, with what it names. */
  inspectorIssues: { issueType: string; subItems: unknown[] }[];
  /** Where the page ended up: a logged-in page sent to /login would show here. */
  finalUrl: string;
}

const score = (result: Result, category: string) => Math.round((result.categories[category]?.score ?? 0) * 100);
const metric = (result: Result, audit: string) => Math.round(result.audits[audit]?.numericValue ?? Number.NaN);

function summarise(result: Result): PageRun {
  const requests = ((result.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? []);
  const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
  const failedAudits = ['accessibility', 'best-practices'].flatMap((category) =>
    (result.categories[category]?.auditRefs ?? [])
      .map((ref) => result.audits[ref.id]!)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
      .map((audit) => ({ id: audit.id, title: audit.title, category })),
  );
  const consoleItems = (result.audits['errors-in-console']?.details as { items?: { description?: string }[] } | undefined)?.items ?? [];
  return {
    performance: score(result, 'performance'),
    accessibility: score(result, 'accessibility'),
    bestPractices: score(result, 'best-practices'),
    lcpMs: metric(result, 'largest-contentful-paint'),
    fcpMs: metric(result, 'first-contentful-paint'),
    tbtMs: metric(result, 'total-blocking-time'),
    speedIndexMs: metric(result, 'speed-index'),
    cls: Math.round((result.audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000,
    totalTransferKB: kb(requests.reduce((sum, item) => sum + (item.transferSize ?? 0), 0)),
    scriptTransferKB: kb(requests.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0)),
    failedAudits,
    consoleErrors: consoleItems.map((item) => item.description ?? '').filter(Boolean),
    inspectorIssues: ((result.audits['inspector-issues']?.details as { items?: { issueType: string; subItems?: { items?: unknown[] } }[] } | undefined)?.items ?? []).map(
      (item) => ({ issueType: item.issueType, subItems: item.subItems?.items ?? [] }),
    ),
    finalUrl: result.finalDisplayedUrl,
  };
}

/** One Lighthouse run in a fresh profile; a logged-in page gets the session in localStorage first. */
async function measure(baseUrl: string, path: string, session: { token: string; userId: string } | null): Promise<PageRun> {
  const profile = mkdtempSync(join(tmpdir(), 'keel-lighthouse-profile-'));
  const port = await freePort();
  // A persistent context is the browser's default one, the one Lighthouse's own tab opens in, so
  // the session written here is the one the measured page reads.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  try {
    if (session) {
      const page = context.pages()[0] ?? (await context.newPage());
      // Not a page of the app, so none of its files are in the cache before the measured visit.
      await page.goto(`${baseUrl}/healthz`);
      await page.evaluate(({ token, userId }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('userId', userId);
      }, session);
    }
    const runner = await lighthouse(
      `${baseUrl}${path}`,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        // The profile is new (cold cache); a reset would also drop the session written above.
        disableStorageReset: true,
      },
      desktop ? desktopConfig : undefined,
    );
    if (!runner) throw new Error(`Lighthouse gave no result for ${path}`);
    if (runner.lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${runner.lhr.runtimeError.message}`);
    if (args.reports) {
      mkdirSync(args.reports, { recursive: true });
      const name = `${path.slice(1).replaceAll('/', '_')}-${Date.now()}`;
      writeFileSync(join(args.reports, `${name}.json`), JSON.stringify(runner.lhr));
      // The observed trace the simulation started from (open in Chromium's Performance panel).
      writeFileSync(join(args.reports, `${name}.trace.json`), JSON.stringify(runner.artifacts.Trace));
      if (process.env.BENCH_LIGHTHOUSE_ARTIFACTS) {
        const { Trace, DevtoolsLog, GatherContext, URL, SourceMaps } = runner.artifacts;
        const artifacts = { Trace, DevtoolsLog, GatherContext, URL, SourceMaps, settings: runner.lhr.configSettings };
        writeFileSync(join(args.reports, `${name}.artifacts.json`), JSON.stringify(artifacts));
      }
    }
    return summarise(runner.lhr);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (items: PageRun[]) => [...items].sort((a, b) => a.performance - b.performance)[Math.floor(items.length / 2)]!;

async function main() {
  const loadAverageAtStart = loadAverage();
  if (!args['no-build']) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`npm run build failed in ${root}`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-lighthouse-data-'));
  const server = await startKeel(dataDir);
  try {
    const session = await logIn(server);
    const results: Record<string, { median: PageRun; runs: { performance: number; lcpMs: number }[] }> = {};
    for (const page of pages) {
      const pageRuns: PageRun[] = [];
      for (let run = 0; run < runs; run++) {
        // Lighthouse now and then fails to record a trace (NO_NAVSTART on a busy machine): try that run again, twice at most.
        let measured: PageRun | undefined;
        for (let attempt = 1; !measured; attempt++) {
          try {
            measured = await measure(server.baseUrl, page.path, page.loggedIn ? session : null);
          } catch (error) {
            if (attempt >= 3) throw error;
            console.log(`${page.path} run ${run + 1}: ${(error as Error).message}; again`);
          }
        }
        console.log(`${page.path} run ${run + 1}/${runs}: performance ${measured.performance}, LCP ${(measured.lcpMs / 1000).toFixed(2)} s, accessibility ${measured.accessibility}, best practices ${measured.bestPractices}`);
        pageRuns.push(measured);
      }
      results[page.path] = { median: median(pageRuns), runs: pageRuns.map(({ performance, lcpMs }) => ({ performance, lcpMs })) };
    }
    const targetsMet = Object.fromEntries(
      Object.entries(results).map(([path, { median: m }]) => [
        path,
        {
          performance: m.performance >= lighthouseTargets.performance,
          lcp: m.lcpMs <= lighthouseTargets.lcpMs,
          accessibility: m.accessibility >= lighthouseTargets.accessibility,
          bestPractices: m.bestPractices >= lighthouseTargets.bestPractices,
        },
      ]),
    );
    const allMet = Object.values(targetsMet).every((met) => Object.values(met).every(Boolean));
    const lighthouseVersion = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version as string;
    const out = {
      label,
      root,
      date: new Date().toISOString(),
      preset: desktop
        ? 'desktop (Lighthouse desktop-config: 1,350 × 940 screen, simulated 40 ms RTT and 10 Mbit/s, no CPU slowdown)'
        : 'mobile (Lighthouse default: simulated throttling, 4× CPU slowdown)',
      lighthouse: lighthouseVersion,
      chromium: CHROMIUM_PATH,
      runsPerPage: runs,
      targets: lighthouseTargets,
      pages: results,
      targetsMet,
      allMet,
      loadAverageAtStart,
      loadAverageAtEnd: loadAverage(),
    };
    mkdirSync(join(repoRoot, 'bench/results'), { recursive: true });
    const file = join(repoRoot, `bench/results/lighthouse-${label}.json`);
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`\n${'page'.padEnd(8)} perf  LCP s   a11y  best-practices`);
    for (const [path, { median: m }] of Object.entries(results)) {
      console.log(`${path.padEnd(8)} ${String(m.performance).padEnd(5)} ${(m.lcpMs / 1000).toFixed(2).padEnd(7)} ${String(m.accessibility).padEnd(5)} ${m.bestPractices}`);
    }
    console.log(`written to ${file}; targets ${allMet ? 'met' : 'NOT met'}`);
    process.exitCode = allMet ? 0 : 1;
  } finally {
    if (server.child.exitCode === null) {
      const exited = new Promise((done) => server.child.once('exit', done));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
