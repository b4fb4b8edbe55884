#!/usr/bin/env node
// Does compare's memory figure agree with a reading by hand of the same tree? A task reads a
// 64 KiB file N times per worker, then holds still in its teardown; while every worker of a
// cell holds still, this script finds the cell's processes (the parent and, in procs mode, its
// children) by a mark in their environment and sums their smaps_rollup Pss and Pss_Anon
// itself; and it reads an idle Node process's Pss_Anon, loaded as a cell's host is.
// Then it sets those beside what the run saved for the cell, and the memory per added worker
// beside (tree - parent before) / k by hand.
//   node scripts/memory-check.js [-k 8] [--iterations 20000]
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';

const { values } = parseArgs({
  options: { k: { type: 'string', default: '8' }, iterations: { type: 'string', default: '20000' } },
});
const k = Number(values.k);
const dir = mkdtempSync(join(tmpdir(), 'mmapbench-memory-check-'));
const mark = `memcheck-${process.pid}`;
const task = join(dir, 'holds-still.mjs');
writeFileSync(
  task,
  `import { readFileSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
export default {
  run(ctx, n) { for (let i = 0; i < n; i++) readFileSync(ctx.file); },
  teardown(ctx) {
    writeFileSync(${JSON.stringify(dir)} + '/still-' + ctx.mode + '-' + process.pid + '-' + threadId, '');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
  },
};
`,
);
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const run = execa(process.execPath, [
  bin,
  'compare',
  '-k',
  String(k),
  '--task',
  task,
  '--iterations',
  values.iterations,
  '--warmup',
  '0',
  '--rounds',
  '1',
  '--json',
  '--no-save',
  '--env',
  `MEMCHECK=${mark}`,
]);

const marked = () =>
  readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`MEMCHECK=${mark}`) ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
const rollup = (/** @type {number | undefined} */ pid, /** @type {string} */ field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]) * 1024;

// By hand, what an app holds before it adds any worker: a Node process of its own that has
// loaded what a cell's host loads (the hosts read theirs just before their first new Worker or
// fork), held idle while it is read.
const imports = ['../src/run/task-runner.js', '../src/system/memory.js', '../src/system/children.js']
  .map((path) => `await import(${JSON.stringify(new URL(path, import.meta.url).href)});`)
  .join(' ');
const idle = execa(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `${imports} await import('node:worker_threads'); await import('node:child_process'); console.log('ready'); setInterval(() => {}, 1000);`,
  ],
  { reject: false },
);
await new Promise((resolve) => idle.stdout.once('data', resolve));
const before = rollup(idle.pid, 'Pss_Anon');
idle.kill();
/** @type {Record<string, { pss: number, anon: number, processes: number }>} */
const byHand = {};
const seen = new Set();
while (run.exitCode === null && Object.keys(byHand).length < 2) {
  const pids = marked();
  const still = readdirSync(dir).filter((name) => name.startsWith('still-') && !seen.has(name));
  for (const mode of ['workers', 'procs']) {
    const now = still.filter((name) => name.startsWith(`still-${mode}-`));
    if (now.length === k && !(mode in byHand)) {
      byHand[mode] = {
        pss: pids.reduce((sum, pid) => sum + rollup(pid, 'Pss'), 0),
        anon: pids.reduce((sum, pid) => sum + rollup(pid, 'Pss_Anon'), 0),
        processes: pids.length,
      };
      now.forEach((name) => seen.add(name));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 2));
}
const doc = JSON.parse((await run).stdout);
const MiB = 2 ** 20;
const pct = (tool, hand) => `${(((tool - hand) / hand) * 100).toFixed(1)}%`;
const mib = (bytes) => (bytes / MiB).toFixed(1);
console.log(`k=${k}, ${values.iterations} reads of 64 KiB per worker, one round (MiB):`);
for (const mode of ['workers', 'procs']) {
  const { memory } = doc.rounds[0][mode];
  const hand = byHand[mode];
  const perWorker = (memory.anonBytes - memory.anonymousBefore) / k;
  const perWorkerByHand = (hand.anon - before) / k;
  console.log(
    `  ${mode}: tree PSS mmapbench ${mib(memory.pssBytes)}, by hand ${mib(hand.pss)} (${pct(memory.pssBytes, hand.pss)}); ` +
      `tree anonymous ${mib(memory.anonBytes)}, by hand ${mib(hand.anon)} (${pct(memory.anonBytes, hand.anon)}, ${hand.processes} processes); ` +
      `parent before ${mib(memory.anonymousBefore)}, an idle Node by hand ${mib(before)}; ` +
      `per added worker ${mib(perWorker)}, by hand ${mib(perWorkerByHand)} (${pct(perWorker, perWorkerByHand)})`,
  );
}
