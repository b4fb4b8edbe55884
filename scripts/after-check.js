#!/usr/bin/env node
// Does compare's "kept after the workers end" agree with a reading by hand? An app (a fresh
// process each run) starts K workers that readFileSync a file for a while, ends them as an app
// would (`worker.terminate()`, `child.kill()`), times the teardown (request → every exit
// event), and reads its own anonymous memory (RssAnon, /proc/self/status) right away and at
// each of a few waits after, the last after `gc()`; over `--cycles` cycles in the one app.
// Printed: the app's anonymous memory before its first worker and after each cycle, what it
// kept per worker, and the teardown, per mode, median over `--runs` runs (each run in turn).
// Nothing of mmapbench's is used.
//   node scripts/after-check.js [-k 2] [--file 64k] [--seconds 2] [--cycles 4] [--runs 3]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);

// a worker (thread or child): readFileSync until told the time is up, then wait to be ended
if (!isMainThread || process.argv[2] === '--child') {
  const { file, until } = isMainThread ? JSON.parse(process.argv[3]) : workerData;
  while (Date.now() < until) for (let i = 0; i < 100; i++) readFileSync(file);
  if (isMainThread) process.send?.('done');
  else (await import('node:worker_threads')).parentPort?.postMessage('done');
  setInterval(() => {}, 1 << 30); // alive until ended, as a pool's idle worker is
} else {
  const app = process.argv[2] === '--app' ? process.argv[3] : undefined;
  const { values } = parseArgs({
    args: process.argv.slice(app ? 4 : 2),
    options: {
      k: { type: 'string', short: 'k', default: '2' },
      file: { type: 'string', default: '64k' },
      seconds: { type: 'string', default: '2' },
      cycles: { type: 'string', default: '4' },
      runs: { type: 'string', default: '3' },
    },
  });
  const bytes = (/** @type {string} */ text) => {
    const [, n, unit] = /^(\d+)([km]?)$/i.exec(text) ?? [];
    return Number(n) * (unit?.toLowerCase() === 'm' ? 2 ** 20 : unit?.toLowerCase() === 'k' ? 1024 : 1);
  };
  const k = Number(values.k);
  // what the app holds now: RssAnon, in MiB
  const anon = () => Number(/^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
  const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const WAITS = [0, 50, 100, 250, 500];

  if (app) {
    const folder = mkdtempSync(join(tmpdir(), 'after-check-'));
    const file = join(folder, 'file');
    writeFileSync(file, Buffer.alloc(bytes(values.file), 7));
    const gc = /** @type {() => void} */ (globalThis.gc);
    gc();
    const before = anon();
    const cycles = [];
    for (let cycle = 0; cycle < Number(values.cycles); cycle++) {
      const until = Date.now() + Number(values.seconds) * 1000;
      const workers = Array.from({ length: k }, () =>
        app === 'thread'
          ? new Worker(me, { workerData: { file, until } })
          : fork(me, ['--child', JSON.stringify({ file, until })]),
      );
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
      const exited = workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
      const from = performance.now();
      for (const worker of workers) 'terminate' in worker ? worker.terminate() : worker.kill();
      await Promise.all(exited);
      const teardownMs = performance.now() - from;
      /** @type {Record<number, number>} */
      const after = {};
      let waited = 0;
      for (const wait of WAITS) {
        await sleep(wait - waited);
        waited = wait;
        after[wait] = anon();
      }
      gc();
      cycles.push({ teardownMs, after, gc: anon() });
    }
    rmSync(folder, { recursive: true });
    console.log(JSON.stringify({ before, cycles }));
    process.exit(0);
  }

  const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const f = (/** @type {number} */ x) => x.toFixed(1);
  /** @type {Record<string, any[]>} */
  const runs = { thread: [], child: [] };
  for (let run = 0; run < Number(values.runs); run++)
    for (const mode of run % 2 ? ['child', 'thread'] : ['thread', 'child']) {
      const one = spawnSync(process.execPath, ['--expose-gc', me, '--app', mode, ...process.argv.slice(2)], {
        encoding: 'utf8',
      });
      if (one.status !== 0) throw new Error(`the ${mode} app failed: ${one.stderr}`);
      runs[mode].push(JSON.parse(one.stdout));
    }
  console.log(
    `k=${k}, workers readFileSync ${values.file} for ${values.seconds} s a cycle, ${values.cycles} cycles, ${values.runs} runs (median, then each run)`,
  );
  const show = (/** @type {number[]} */ xs, /** @type {number} */ digits = 1) =>
    `${median(xs).toFixed(digits)} (${xs.map((x) => x.toFixed(digits)).join(', ')})`;
  for (const mode of ['thread', 'child']) {
    const rows = runs[mode];
    console.log(`${mode}: the app before its first worker ${show(rows.map((row) => row.before))} MiB`);
    for (let cycle = 0; cycle < Number(values.cycles); cycle++) {
      const at = (/** @type {any} */ row) => row.cycles[cycle];
      console.log(
        `  after cycle ${cycle + 1}: ` +
          WAITS.map((wait) => `${wait} ms ${f(median(rows.map((row) => at(row).after[wait])))}`).join(', ') +
          `, then gc() ${f(median(rows.map((row) => at(row).gc)))} MiB; kept per worker (500 ms) ` +
          `${show(rows.map((row) => (at(row).after[500] - row.before) / k))} MiB; teardown ${show(rows.map((row) => at(row).teardownMs))} ms`,
      );
    }
  }
}
