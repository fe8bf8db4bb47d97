#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.ts one after another (never inside `npm test`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const files = readdirSync(new URL('../bench/', import.meta.url)).filter((name) => name.endsWith('.bench.ts') && (!only || name.includes(only)));
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync('tsx', [`bench/${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
