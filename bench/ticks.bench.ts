// Issue 15, live prices: how long after a price was observed a subscribed `/ws` client has it.
// - Keel: the built server as `npm start` runs it (package.json's `serve` arguments), on a PGlite
//   data folder, BTC/USDT and ETH/USDT listed, the simulator feed beating every MARKET_TICK_INTERVAL_MS (100 ms, ±50 %): each
//   observed price is recorded, read back from the table and pushed to every client subscribed to
//   `ticks` (only recorded ticks are shown). The delay is the client's receive time minus the
//   tick's `atMs` (the observation time the feed stamped; same machine, same clock).
// - Peer: a bare `ws` server process that ticks the same two markets on the same rhythm and
//   broadcasts one serialised frame per tick to every client: no recording, no database.
// The same clients (1,000 and 3,000 connections from this process) read both; runs interleaved.
// Writes bench/results/ticks.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadAverage, machineInfo } from './machine.ts';
import { buildServer, keelListening, LoggedProcesses, repositoryRoot, serveNodeArgs, stopProcess } from './server-process.ts';

const CLIENT_COUNTS = (process.env.BENCH_CLIENTS ?? '1000,3000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MEASURE_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = 2;
const TICK_INTERVAL_MS = 100;
const processes = new LoggedProcesses('ticks');
const keelArgs = serveNodeArgs();

// The peer: plain JavaScript, one frame serialised per tick and written to every client.
const peerSource = `
const { WebSocketServer } = require(${JSON.stringify(join(repositoryRoot, 'node_modules/ws'))});
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
let tickId = 0;
const prices = { 'BTC/USDT': 90000, 'ETH/USDT': 3000 };
function beat() {
  for (const symbol of Object.keys(prices)) {
    tickId += 1;
    prices[symbol] += Math.random() - 0.5;
    const text = JSON.stringify({ type: 'tick', tick: { tickId: String(tickId), symbol, price: prices[symbol].toFixed(8), atMs: Date.now(), source: 'peer' } });
    for (const client of wss.clients) if (client.readyState === 1) client.send(text);
  }
  setTimeout(beat, ${TICK_INTERVAL_MS} * (0.5 + Math.random()));
}
wss.on('listening', () => { console.log('peer http://127.0.0.1:' + wss.address().port + '/'); beat(); });
`;

/** Opens `count` clients subscribed to `ticks`, 200 at a time. */
async function connectClients(url: string, count: number, onTick: (delayMs: number) => void): Promise<WebSocket[]> {
  const clients: WebSocket[] = [];
  const atMsPattern = /"atMs":(\d+)/;
  for (let first = 0; first < count; first += 200) {
    const opening: Promise<void>[] = [];
    for (let index = first; index < Math.min(count, first + 200); index += 1) {
      const client = new WebSocket(url);
      clients.push(client);
      client.on('message', (data) => {
        const receivedAtMs = Date.now();
        const text = data.toString();
        if (!text.startsWith('{"type":"tick"')) return;
        const atMs = atMsPattern.exec(text)?.[1];
        if (atMs) onTick(receivedAtMs - Number(atMs));
      });
      opening.push(
        new Promise((resolve, reject) => {
          client.once('open', () => {
            client.send(JSON.stringify({ op: 'subscribe', channels: ['ticks'] }));
            resolve();
          });
          client.once('error', reject);
        }),
      );
    }
    await Promise.all(opening);
  }
  return clients;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

async function measure(wsUrl: string, clientCount: number) {
  let measuring = false;
  const delays: number[] = [];
  const clients = await connectClients(wsUrl, clientCount, (delayMs) => {
    if (measuring) delays.push(delayMs);
  });
  await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, MEASURE_S * 1000));
  measuring = false;
  for (const client of clients) client.terminate();
  delays.sort((a, b) => a - b);
  return {
    clients: clientCount,
    framesReceived: delays.length,
    ticksPerClientPerSecond: Number((delays.length / clientCount / MEASURE_S).toFixed(1)),
    p50Ms: percentile(delays, 0.5),
    p99Ms: percentile(delays, 0.99),
    maxMs: delays[delays.length - 1] ?? Number.NaN,
  };
}

buildServer();
const loadAtStart = loadAverage();
const dataDir = mkdtempSync(join(tmpdir(), 'keel-bench-ticks-data-'));
const keelEnv = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  // The simulator's made-up prices: production runs them only as a declared demo (ADR 0041).
  KEEL_DEMO: 'true',
  MARKET_FEED: 'simulator',
  MARKET_TICK_INTERVAL_MS: String(TICK_INTERVAL_MS),
  // The two markets the peer ticks, so both sides send about as many frames.
  MARKET_SYMBOLS: 'BTC/USDT,ETH/USDT',
  MARKET_SIM_SEED: 'bench',
};
const results: { side: 'keel' | 'peer'; run: number; clients: number; p50Ms: number; p99Ms: number; maxMs: number; ticksPerClientPerSecond: number; framesReceived: number }[] = [];
try {
  for (let run = 1; run <= RUNS; run += 1) {
    for (const clientCount of CLIENT_COUNTS) {
      for (const side of ['keel', 'peer'] as const) {
        const server =
          side === 'keel'
            ? await processes.start(keelArgs, keelEnv, keelListening)
            : await processes.start(['-e', peerSource], {}, /peer (http:\/\/[^/\s]+)\//);
        try {
          const result = await measure(`${server.baseUrl.replace('http', 'ws')}/ws`, clientCount);
          results.push({ side, run, ...result });
          console.log(
            `run ${run}, ${clientCount} clients, ${side}: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms (${result.ticksPerClientPerSecond} ticks per client per second)`,
          );
        } finally {
          await stopProcess(server.child);
        }
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const summary = CLIENT_COUNTS.map((clients) => {
    const of = (side: 'keel' | 'peer') => results.filter((result) => result.side === side && result.clients === clients);
    return {
      clients,
      keel: { p50MsMedian: median(of('keel').map((r) => r.p50Ms)), p99MsMedian: median(of('keel').map((r) => r.p99Ms)) },
      peer: { p50MsMedian: median(of('peer').map((r) => r.p50Ms)), p99MsMedian: median(of('peer').map((r) => r.p99Ms)) },
    };
  });
  const at3000 = summary.find((row) => row.clients === 3000);
  // Issue 15: at 3,000 clients, p50 ≤ 30 ms and p99 ≤ 100 ms after the price was observed.
  const targets = at3000 ? { p50AtMost30Ms: at3000.keel.p50MsMedian <= 30, p99AtMost100Ms: at3000.keel.p99MsMedian <= 100 } : {};
  const output = {
    benchmark: 'ticks',
    when: new Date().toISOString(),
    tickIntervalMs: TICK_INTERVAL_MS,
    measureSeconds: MEASURE_S,
    nodeArgs: keelArgs,
    runs: results,
    summary,
    targets,
    machine: machineInfo(loadAtStart, null),
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/ticks.json', import.meta.url), `${JSON.stringify(output, null, 2)}\n`);
  console.log(`summary: ${JSON.stringify(summary)}\ntargets: ${JSON.stringify(targets)}; written to bench/results/ticks.json`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  processes.dispose();
}
