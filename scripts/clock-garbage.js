#!/usr/bin/env node
// Does timing ops grow a thread's memory? Two worker threads each run 150,000 ops (open, read
// 64 KiB into one buffer, close: reuse-buffer by hand), timing one op in `--every` between two
// clock reads (`--clock now`: performance.now(); `hrtime`: process.hrtime.bigint(); `none`:
// no timing), then hold still while the app reads what they added to its anonymous memory
// (RssAnon), per thread. Each setting runs in a fresh app, `--runs` times, in turn. Nothing of
// mmapbench's is used. What it showed chose MAX_TIMED in src/run/task-runner.js.
//   node scripts/clock-garbage.js [--every 6,20,40,100] [--runs 2]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);
const OPS = 150_000;
const anon = () => Number(/^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;

if (!isMainThread) {
  const { file, clock, every } = workerData;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const op = () => {
    const fd = openSync(file, 'r');
    readSync(fd, buffer, 0, buffer.length, null);
    closeSync(fd);
  };
  let sink = 0;
  for (let i = 0; i < OPS; i++) {
    if (clock === 'none' || i % every) op();
    else if (clock === 'now') {
      const from = performance.now();
      op();
      sink += performance.now() - from;
    } else {
      const from = process.hrtime.bigint();
      op();
      sink += Number(process.hrtime.bigint() - from);
    }
  }
  parentPort?.postMessage(sink >= 0);
  setInterval(() => {}, 1 << 30);
} else if (process.argv[2] === '--app') {
  // one app: `--app FILE CLOCK EVERY`, prints MiB added per thread
  const [, , , file, clock, every] = process.argv;
  const before = anon();
  const workers = [0, 1].map(() => new Worker(me, { workerData: { file, clock, every: Number(every) } }));
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  console.log(JSON.stringify((anon() - before) / workers.length));
  process.exit(0);
} else {
  const { values } = parseArgs({
    options: { every: { type: 'string', default: '6,20,40,100' }, runs: { type: 'string', default: '2' } },
  });
  const dir = mkdtempSync(join(tmpdir(), 'clock-garbage-'));
  const file = join(dir, 'med');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  const app = (/** @type {string} */ clock, /** @type {number} */ every) => {
    const run = spawnSync(process.execPath, [me, '--app', file, clock, String(every)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return /** @type {number} */ (JSON.parse(run.stdout));
  };
  const show = (/** @type {number[]} */ xs) => xs.map((x) => x.toFixed(2)).join(', ');
  console.log(`2 threads, ${OPS.toLocaleString('en')} ops each; MiB each thread added to the app, ${values.runs} runs`);
  for (const every of values.every.split(',').map(Number)) {
    const runs = { none: [], now: [], hrtime: [] };
    for (let run = 0; run < Number(values.runs); run++)
      for (const clock of /** @type {const} */ (['none', 'now', 'hrtime'])) runs[clock].push(app(clock, every));
    console.log(
      `one op in ${every} timed: none ${show(runs.none)}; performance.now() ${show(runs.now)}; process.hrtime.bigint() ${show(runs.hrtime)}`,
    );
  }
  rmSync(dir, { recursive: true });
}
