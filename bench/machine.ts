import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

// What every benchmark's JSON says about the machine it ran on: the machine may be shared, and the
// load around a run says how far to trust its numbers.

/** The 1, 5 and 15 minute load averages, two decimals. */
export function loadAverage(): number[] {
  return loadavg().map((load) => Number(load.toFixed(2)));
}

/** The machine block of a result: hardware, runtime, the PGlite in use, and the load at start and end. */
export function machineInfo(loadAverageAtStart: number[], postgres: unknown) {
  const pglite = (JSON.parse(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    pglite,
    postgres,
    loadAverageAtStart,
    loadAverageAtEnd: loadAverage(),
  };
}
