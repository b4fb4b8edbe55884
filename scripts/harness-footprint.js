#!/usr/bin/env node
// How much of "memory per added worker" is mmapbench's own? By hand, with no mmapbench code: an
// app (a fresh process each run) reads its anonymous memory, starts K workers (threads or
// children) that run a task's ops, and, with every worker holding still, reads the anonymous
// memory of its tree (itself and its children): (tree − before) / K. For a task that does
// nothing, and for reuse-buffer (a 64 KiB file read into one buffer). Then compare on the same
// two tasks (`--main off`: no app load), whose figure charges the workers what the harness loads
// and allocates in them too. The harness's share is the difference on the task that does nothing.
//   node scripts/harness-footprint.js [-k 2] [--runs 5] [--ops 20000] [--duration 1]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, readSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);
const MiB = 2 ** 20;
const anonOf = (/** @type {number} */ pid) =>
  Number(/^Pss_Anon:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]) * 1024;

// a worker: run the task's ops, say so, and hold still until ended
if (!isMainThread || process.argv[2] === '--child') {
  const { task, file, ops } = isMainThread ? JSON.parse(process.argv[3]) : workerData;
  if (task === 'reuse-buffer') {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (let i = 0; i < ops; i++) {
      const fd = openSync(file, 'r');
      readSync(fd, buffer, 0, buffer.length, null);
      closeSync(fd);
    }
  }
  if (isMainThread) process.send?.('done');
  else parentPort?.postMessage('done');
  setInterval(() => {}, 1 << 30);
} else if (process.argv[2] === '--app') {
  // one app: `--app MODE TASK FILE K OPS`, prints what each worker added, in bytes
  const [, , , mode, task, file, k, ops] = process.argv;
  const before = anonOf(process.pid);
  const workers = Array.from({ length: Number(k) }, () =>
    mode === 'thread'
      ? new Worker(me, { workerData: { task, file, ops: Number(ops) } })
      : fork(me, ['--child', JSON.stringify({ task, file, ops: Number(ops) })], {
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        }),
  );
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  const tree =
    anonOf(process.pid) +
    workers.reduce((sum, worker) => sum + ('pid' in worker ? anonOf(/** @type {number} */ (worker.pid)) : 0), 0);
  for (const worker of workers) 'kill' in worker ? worker.kill('SIGKILL') : worker.terminate();
  console.log(JSON.stringify((tree - before) / Number(k)));
  process.exit(0);
} else {
  // loaded here alone: this file is also each worker the rows measure by hand
  const { pointView } = await import('../src/document/points-of.js');
  const { values } = parseArgs({
    options: {
      k: { type: 'string', short: 'k', default: '2' },
      runs: { type: 'string', default: '5' },
      ops: { type: 'string', default: '20000' },
      duration: { type: 'string', default: '1' },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'harness-footprint-'));
  const file = join(dir, 'med');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  const noop = join(dir, 'noop.mjs');
  writeFileSync(noop, `export default { name: 'noop', run() {} };\n`);
  const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const show = (/** @type {number[]} */ xs) =>
    `${(median(xs) / MiB).toFixed(1)} (${xs.map((x) => (x / MiB).toFixed(1)).join(', ')})`;

  /** @type {Record<string, number>} */
  const byHand = {};
  for (const task of ['noop', 'reuse-buffer'])
    for (const mode of ['thread', 'child']) {
      const runs = [];
      for (let run = 0; run < Number(values.runs); run++) {
        const app = spawnSync(process.execPath, [me, '--app', mode, task, file, values.k, values.ops], {
          encoding: 'utf8',
        });
        if (app.status !== 0) throw new Error(`the app failed: ${app.stderr}`);
        runs.push(JSON.parse(app.stdout));
      }
      byHand[`${task} ${mode}`] = median(runs);
      console.log(`by hand, ${task}, ${mode}: ${show(runs)} MiB per added worker`);
    }

  const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
  for (const [task, label] of [
    [noop, 'noop'],
    ['reuse-buffer', 'reuse-buffer'],
  ]) {
    const run = spawnSync(
      process.execPath,
      [
        ...[bin, 'compare', '-k', values.k, '--task', task, '--rounds', values.runs],
        ...['--duration', values.duration, '--main', 'off', '--json', '--no-save'],
      ],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    if (run.status !== 0) throw new Error(`compare failed: ${run.stderr}`);
    const document = pointView(JSON.parse(run.stdout));
    for (const [mode, hand] of [
      ['workers', 'thread'],
      ['procs', 'child'],
    ]) {
      const tool = document[mode].addedMemory.median * MiB;
      const own = byHand[`${label} ${hand}`];
      console.log(
        `compare, ${label}, ${mode}: ${show(document[mode].addedMemory.samples.map((/** @type {number} */ x) => x * MiB))} MiB per added worker; by hand ${(own / MiB).toFixed(1)}: ${(((tool - own) / own) * 100).toFixed(0)}%, ${((tool - own) / MiB).toFixed(1)} MiB more`,
      );
    }
  }
  rmSync(dir, { recursive: true });
}
