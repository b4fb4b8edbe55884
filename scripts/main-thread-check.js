#!/usr/bin/env node
// Does compare's main-thread figure agree with a reading by hand? An app that serves a request
// every 2 ms on its main thread (allocate and fill a Buffer, a small JSON round trip), each
// timed, with Node's event-loop delay monitor at 1 ms, for a few seconds: alone, beside K worker
// threads, and beside K child processes, the workers reading a 64 KiB file with readFileSync.
// It prints the request p50 and p99 and the event loop's p99 of each, over `--runs` runs, one
// mode after the other in turn. Each run is a fresh app (a new process): glibc's allocation
// thresholds are process-wide and a thread's frees raise them for good, so an app that has once
// had a thread serves its requests differently ever after. Nothing of mmapbench's is used.
//   node scripts/main-thread-check.js [-k 1] [--size 64k] [--every 2] [--seconds 5] [--runs 3]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
// the main thread's minor page faults so far (field 10 of /proc/thread-self/stat)
const faults = () => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[7]);
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);

// a worker (thread or child): readFileSync until told the time is up
if (!isMainThread || process.argv[2] === '--child') {
  const { file, until } = isMainThread ? JSON.parse(process.argv[3]) : workerData;
  while (Date.now() < until) for (let i = 0; i < 100; i++) readFileSync(file);
  process.exit(0);
}

const app = process.argv[2] === '--app' ? process.argv[3] : undefined;
const { values } = parseArgs({
  args: process.argv.slice(app ? 4 : 2),
  options: {
    k: { type: 'string', short: 'k', default: '1' },
    size: { type: 'string', default: '64k' },
    every: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
  },
});
const bytes = (/** @type {string} */ text) => {
  const [, n, unit] = /^(\d+)([km]?)$/i.exec(text) ?? [];
  return Number(n) * (unit?.toLowerCase() === 'm' ? 2 ** 20 : unit?.toLowerCase() === 'k' ? 1024 : 1);
};
const k = Number(values.k);
const size = bytes(values.size);
const every = Number(values.every);
const seconds = Number(values.seconds);
const folder = mkdtempSync(join(tmpdir(), 'main-thread-check-'));
const file = join(folder, 'med');
if (app) writeFileSync(file, Buffer.alloc(64 * 1024, 7));

/** One run of the app beside `mode`'s workers: its requests' times and its loop's delay. */
async function runOnce(/** @type {'alone'|'thread'|'child'} */ mode) {
  const until = Date.now() + 300 + seconds * 1000;
  const workers = [];
  for (let i = 0; i < (mode === 'alone' ? 0 : k); i++)
    workers.push(
      mode === 'thread'
        ? new Worker(me, { workerData: { file, until } })
        : fork(me, ['--child', JSON.stringify({ file, until })]),
    );
  const ended = workers.map((worker) => new Promise((resolve) => worker.on('exit', resolve)));
  // warm, then measure from 300 ms on, as the workers run
  /** @type {number[]} */
  const times = [];
  let index = 0;
  let measuring = false;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const timer = setInterval(() => {
    const from = performance.now();
    const body = Buffer.allocUnsafe(size).fill(index & 0xff);
    const reply = JSON.parse(JSON.stringify({ id: index++, user: 'u', items: [1, 2, 3], bytes: body.length }));
    if (reply.bytes !== size) throw new Error('lost');
    if (measuring) times.push((performance.now() - from) * 1000);
  }, every);
  await new Promise((resolve) => setTimeout(resolve, 300));
  measuring = true;
  delay.enable();
  const faultsBefore = faults();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  clearInterval(timer);
  delay.disable();
  const faulted = faults() - faultsBefore;
  await Promise.all(ended);
  times.sort((a, b) => a - b);
  const at = (/** @type {number} */ p) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
  return {
    requests: times.length,
    p50: at(50),
    p99: at(99),
    loopP99: delay.percentile(99) / 1e6,
    faults: faulted / times.length,
  };
}

const modes = /** @type {const} */ (['alone', 'thread', 'child']);

// one app, one run: `--app MODE` prints its figures as JSON on stdout
if (app) {
  const figures = await runOnce(/** @type {(typeof modes)[number]} */ (app));
  rmSync(folder, { recursive: true });
  console.log(JSON.stringify(figures));
  process.exit(0);
}
rmSync(folder, { recursive: true });

/** A fresh app process for one run of `mode`. */
function freshApp(/** @type {string} */ mode) {
  const app = spawnSync(process.execPath, [me, '--app', mode, ...process.argv.slice(2)], { encoding: 'utf8' });
  if (app.status !== 0) throw new Error(`the ${mode} app failed: ${app.stderr}`);
  return JSON.parse(app.stdout);
}

/** @type {Record<string, Array<Awaited<ReturnType<typeof runOnce>>>>} */
const results = { alone: [], thread: [], child: [] };
for (let run = 0; run < Number(values.runs); run++)
  for (const mode of run % 2 ? [...modes].reverse() : modes) results[mode].push(freshApp(mode));

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `k=${k}, a request every ${every} ms of ${values.size}, ${seconds} s a run, ${values.runs} runs (median, then each run)`,
);
for (const mode of modes) {
  const rows = results[mode];
  const show = (/** @type {keyof (typeof rows)[0]} */ key, /** @type {number} */ digits) =>
    `${median(rows.map((row) => row[key])).toFixed(digits)} (${rows.map((row) => row[key].toFixed(digits)).join(', ')})`;
  console.log(
    `${mode.padEnd(6)} request p50 ${show('p50', 0)} µs, p99 ${show('p99', 0)} µs; event-loop delay p99 ${show('loopP99', 2)} ms; page faults per request ${show('faults', 1)}`,
  );
}
