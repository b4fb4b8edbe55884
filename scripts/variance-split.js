#!/usr/bin/env node
// Where the rounds' noise lives (Kalibera & Jones, "Rigorous benchmarking in reasonable time",
// 2013): between fresh trees, between windows of one tree, and the machine's drift that moves
// both modes' trees of a round together. Bare trees, no mmapbench code beyond the task module's
// own setup and run: each tree a fresh Node process that starts K workers (threads or children),
// warms them up, releases them together and has each run `--windows` timed windows of the same
// ops back to back; its cell throughput per window is K × ops over the first worker's start to
// the last one's end of that window. Rounds alternate the modes' trees (workers first in odd
// rounds), as compare's do.
//
// It prints, per mode, the variance of log throughput split into trees and windows (a nested
// one-way analysis of variance), the drift the two modes' trees of a round share (their
// covariance over rounds), what a tree and a window cost here, and for a workers/procs ratio to
// ±`--precision`: the time any schedule of r windows a tree needs (r = 1 is compare's), the
// best r, and the floor it sets.
//   node scripts/variance-split.js [--task readfilesync|json|reuse-buffer] [-k 2] [--rounds 16]
//     [--windows 4] [--window-ms 100] [--precision 5]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);
const now = () => Number(process.hrtime.bigint());

/** A worker: set up, warm up, say ready; on `go`, run the windows and send their times. */
async function worker(/** @type {any} */ job) {
  const send = (/** @type {unknown} */ message) =>
    isMainThread ? process.send?.(message) : parentPort?.postMessage(message);
  const on = (/** @type {(message: any) => void} */ listener) =>
    isMainThread ? process.on('message', listener) : parentPort?.on('message', listener);
  const { default: task } = await import(job.task);
  const ctx = { file: job.file, fileSize: job.fileSize, params: job.params, state: {} };
  await task.setup?.(ctx);
  // warm up as long as two windows take: the rate stops trending by then here (how-it-measures.md)
  const until = now() + 2 * job.windowMs * 1e6;
  while (now() < until) await task.run(ctx, Math.max(1, Math.round(job.ops / 10)));
  on(async () => {
    const windows = [];
    for (let i = 0; i < job.windows; i++) {
      const start = now();
      await task.run(ctx, job.ops);
      windows.push([start, now()]);
    }
    send(windows);
  });
  send('ready');
}

/** A tree: K workers of one mode, released together; prints each window's cell throughput. */
async function tree(/** @type {any} */ job) {
  const workers = Array.from({ length: job.k }, () =>
    job.mode === 'workers'
      ? new Worker(me, { workerData: job })
      : fork(me, ['--worker', JSON.stringify(job)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
  );
  const next = (/** @type {any} */ one) => new Promise((resolve) => one.once('message', resolve));
  await Promise.all(workers.map(next));
  const done = Promise.all(workers.map(next));
  for (const one of workers) 'send' in one ? one.send('go') : one.postMessage('go');
  const times = /** @type {number[][][]} */ (await done);
  const throughput = Array.from({ length: job.windows }, (_, i) => {
    const start = Math.min(...times.map((windows) => windows[i][0]));
    const end = Math.max(...times.map((windows) => windows[i][1]));
    return (job.k * job.ops * 1e9) / (end - start);
  });
  const windowNs = times.flatMap((windows) => windows.map(([start, end]) => end - start));
  process.stdout.write(JSON.stringify({ throughput, windowNs: windowNs.reduce((a, b) => a + b) / windowNs.length }));
  process.exit(0);
}

if (process.argv[2] === '--worker' || !isMainThread)
  await worker(isMainThread ? JSON.parse(process.argv[3]) : workerData);
else if (process.argv[2] === '--tree') await tree(JSON.parse(process.argv[3]));
else await main();

async function main() {
  const { values } = parseArgs({
    options: {
      task: { type: 'string', default: 'readfilesync' },
      k: { type: 'string', short: 'k', default: '2' },
      rounds: { type: 'string', default: '16' },
      windows: { type: 'string', default: '4' },
      'window-ms': { type: 'string', default: '100' },
      precision: { type: 'string', default: '5' },
    },
  });
  const { default: jstat } = await import('jstat');
  const [k, rounds, windows, windowMs, precision] = ['k', 'rounds', 'windows', 'window-ms', 'precision'].map((name) =>
    Number(values[/** @type {keyof typeof values} */ (name)]),
  );
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const dir = mkdtempSync(join(tmpdir(), 'variance-split-'));
  const file = join(dir, 'med');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  const task = pathToFileURL(fileURLToPath(new URL(`../src/tasks/${values.task}.js`, import.meta.url))).href;
  const { default: module } = await import(task);
  // each parameter's default, as the tool gives a task (json's object of 64 KiB)
  const params = Object.fromEntries(
    Object.entries(/** @type {Record<string, { default?: unknown }>} */ (module.params ?? {})).map(([name, param]) => [
      name,
      param.default,
    ]),
  );
  const job = { k, windows, windowMs, task, file, fileSize: statSync(file).size, params, ops: 0 };

  // ops a window: one worker's rate alone, over about a window's time after two of warming up
  const ctx = { file, fileSize: job.fileSize, params: job.params, state: {} };
  await module.setup?.(ctx);
  let ops = 0;
  for (let from = now(); now() - from < 2 * windowMs * 1e6; ops++) await module.run(ctx, 1);
  const from = now();
  await module.run(ctx, ops);
  job.ops = Math.max(1, Math.round((ops * windowMs * 1e6) / (now() - from)));

  const runTree = (/** @type {string} */ mode) => {
    const start = now();
    const run = spawnSync(process.execPath, [me, '--tree', JSON.stringify({ ...job, mode })], {
      encoding: 'utf8',
      env,
    });
    if (run.status !== 0) throw new Error(`a ${mode} tree failed: ${run.stderr}`);
    return { ...JSON.parse(run.stdout), treeNs: now() - start };
  };
  /** @type {Record<'workers'|'procs', Array<{ throughput: number[], windowNs: number, treeNs: number }>>} */
  const trees = { workers: [], procs: [] };
  for (let round = 0; round < rounds; round++)
    for (const mode of round % 2
      ? /** @type {const} */ (['procs', 'workers'])
      : /** @type {const} */ (['workers', 'procs']))
      trees[mode].push(runTree(mode));
  rmSync(dir, { recursive: true });

  const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = (/** @type {number[]} */ xs) =>
    xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0) / (xs.length - 1);
  /**
   * Log throughput split into trees and windows within a tree: an analysis of variance with the
   * window's place as a fixed effect (a tree's later windows run on a heap its earlier ones grew:
   * json's fall by a quarter from the first to the fourth, the same in every tree), so that a
   * trend every tree shares is not counted as noise between windows
   */
  const split = (/** @type {number[][]} */ y) => {
    const n = y.length;
    const byTree = y.map(mean);
    const byPlace = Array.from({ length: windows }, (_, j) => mean(y.map((row) => row[j])));
    const grand = mean(byTree);
    let residual = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < windows; j++) residual += (y[i][j] - byTree[i] - byPlace[j] + grand) ** 2;
    const within = residual / ((n - 1) * (windows - 1));
    return { tree: Math.max(0, variance(byTree) - within / windows), window: within };
  };
  const logs = {
    workers: trees.workers.map((t) => t.throughput.map(Math.log)),
    procs: trees.procs.map((t) => t.throughput.map(Math.log)),
  };
  const parts = { workers: split(logs.workers), procs: split(logs.procs) };
  // the drift both modes' trees of a round share: the covariance of their means over rounds
  const w = logs.workers.map(mean);
  const p = logs.procs.map(mean);
  const drift = w.reduce((sum, x, i) => sum + (x - mean(w)) * (p[i] - mean(p)), 0) / (rounds - 1);
  // a round's log ratio from one window a tree: the trees' parts less what they share, and one
  // window's; with r windows a tree, the windows' part over r
  const treePart = parts.workers.tree + parts.procs.tree - 2 * drift;
  const windowPart = parts.workers.window + parts.procs.window;
  const perRound = (/** @type {number} */ r) => Math.max(0, treePart) + windowPart / r;
  const firstRatios = trees.workers.map((t, i) => Math.log(t.throughput[0] / trees.procs[i].throughput[0]));
  const windowSeconds = mean([...trees.workers, ...trees.procs].map((t) => t.windowNs)) / 1e9;
  const treeSeconds = mean([...trees.workers, ...trees.procs].map((t) => t.treeNs)) / 1e9 - windows * windowSeconds;
  const target = Math.log(1 + precision / 100);
  // rounds to ±precision at this per-round variance (t on n − 1), and their time
  const timeFor = (/** @type {number} */ r) => {
    const v = perRound(r);
    let n = 3;
    while (n < 100000 && jstat.studentt.inv(0.975, n - 1) * Math.sqrt(v / n) > target) n++;
    return { r, n, seconds: n * 2 * (treeSeconds + r * windowSeconds) };
  };
  const schedules = [1, 2, 3, 4, 6, 8, 12].map(timeFor);
  const best = schedules.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const sd = (/** @type {number} */ v) => `${(Math.sqrt(Math.max(0, v)) * 100).toFixed(1)}%`;
  const share = (/** @type {number} */ v, /** @type {number} */ of) => `${Math.round((100 * Math.max(0, v)) / of)}%`;
  const all = Math.max(0, treePart) + windowPart;
  const lines = [
    `variance-split: ${values.task}, k=${k}, ${rounds} rounds of a tree a mode, ${windows} windows of ${job.ops} ops a tree (about ${windowMs} ms), Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC`,
    ...['workers', 'procs'].map(
      (mode) =>
        `  ${mode.padEnd(7)} log throughput sd between trees ${sd(parts[/** @type {'workers'} */ (mode)].tree)}, between windows of a tree ${sd(parts[/** @type {'workers'} */ (mode)].window)}`,
    ),
    `  what a round's two trees share (the machine's drift, which their ratio cancels): sd ${sd(drift)}${drift < 0 ? ' (below 0: none)' : ''}`,
    `  a round's log ratio, one window a tree: sd ${sd(perRound(1))} predicted, ${sd(variance(firstRatios))} measured (first windows)`,
    `  of its variance: ${share(treePart, all)} between trees (less what the round's two share), ${share(windowPart, all)} between windows`,
    `  by window (geometric mean, ops/s): ${['workers', 'procs']
      .map(
        (mode) =>
          `${mode} ${Array.from({ length: windows }, (_, i) =>
            Math.exp(mean(logs[/** @type {'workers'} */ (mode)].map((y) => y[i]))).toFixed(0),
          ).join(', ')}`,
      )
      .join('; ')}`,
    `  a tree costs ${treeSeconds.toFixed(2)} s beyond its windows, a window ${windowSeconds.toFixed(3)} s`,
    `  to ±${precision}%: ${schedules.map((s) => `r=${s.r} ${s.n} rounds ${s.seconds.toFixed(0)} s`).join('; ')}`,
    `  floor: about ${best.seconds.toFixed(0)} s with ${best.r} windows a tree (r=1, compare's schedule: ${schedules[0].seconds.toFixed(0)} s)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
