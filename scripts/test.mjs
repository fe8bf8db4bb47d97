#!/usr/bin/env node
// The one test command (`npm test`): lint, type check, unit, integration on PGlite and on
// PostgreSQL, build, and the browser suite. Without PostgreSQL or Chromium it says what it skipped
// and why; with CI=true nothing may be skipped. The last line is "total: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const inCi = process.env.CI === 'true' || process.env.CI === '1';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const postgresUrl = process.env.TEST_DATABASE_URL;
const resultsDir = mkdtempSync(join(tmpdir(), 'keel-test-'));

const totals = { passed: 0, failed: 0, skipped: 0 };
const report = [];
let failedSteps = 0;

function run(command, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return { ok: result.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function step(name, command, args, env) {
  console.log(`\n=== ${name}`);
  const { ok, seconds } = run(command, args, env);
  report.push(`${ok ? 'ok     ' : 'FAILED '} ${name} (${seconds} s)`);
  if (!ok) failedSteps += 1;
  return ok;
}

function vitestStep(name, project, env = {}) {
  const output = join(resultsDir, `${name.replace(/\W+/g, '-')}.json`);
  const ok = step(name, 'vitest', ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`], env);
  if (existsSync(output)) {
    const json = JSON.parse(readFileSync(output, 'utf8'));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
    report[report.length - 1] += ` — ${json.numPassedTests} passed, ${json.numFailedTests} failed`;
    if (json.numTotalTests === 0) {
      report[report.length - 1] += ' (no tests ran)';
      failedSteps += 1;
    }
  } else if (ok) {
    failedSteps += 1;
  }
}

function skip(name, why) {
  if (inCi) {
    report.push(`FAILED  ${name}: would be skipped (${why}), and nothing may be skipped in CI`);
    failedSteps += 1;
  } else {
    report.push(`SKIPPED ${name}: ${why}`);
  }
}

step('lint (biome)', 'biome', ['lint', '.']);
step('type check (tsc)', 'tsc', ['-p', 'tsconfig.json']);
vitestStep('unit', 'unit');
vitestStep('integration on PGlite', 'integration', { KEEL_TEST_DB: 'pglite' });
if (postgresUrl) vitestStep('integration on PostgreSQL', 'integration', { KEEL_TEST_DB: 'postgres' });
else skip('integration on PostgreSQL', 'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)');
if (existsSync(chromiumPath)) {
  if (step('build (web and admin apps, server)', 'npm', ['run', 'build', '--silent'])) vitestStep('browser (Chromium)', 'e2e', { CHROMIUM_PATH: chromiumPath });
  else report.push('FAILED  browser (Chromium): the build failed');
} else {
  skip('browser (Chromium)', `no browser at ${chromiumPath} (apt-get install -y chromium)`);
}

console.log('\n=== summary');
for (const line of report) console.log(line);
console.log(`total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps > 0 || totals.failed > 0 ? 1 : 0);
