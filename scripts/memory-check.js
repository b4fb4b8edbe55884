#!/usr/bin/env node
// Does compare's memory figure agree with a reading by hand of the same tree? A task reads a
// 64 KiB file N times per worker, then holds still in its teardown; while every worker of a
// cell holds still, this script finds the cell's processes by a mark in their environment and
// sums their smaps_rollup Pss itself. Then it sets that beside what the run saved for the cell.
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
const pss = (pid) => Number(/^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]) * 1024;

/** @type {Record<string, number>} */
const byHand = {};
const seen = new Set();
while (run.exitCode === null && Object.keys(byHand).length < 2) {
  const still = readdirSync(dir).filter((name) => name.startsWith('still-') && !seen.has(name));
  for (const mode of ['workers', 'procs']) {
    const now = still.filter((name) => name.startsWith(`still-${mode}-`));
    if (now.length === k && !(mode in byHand)) {
      byHand[mode] = marked().reduce((sum, pid) => sum + pss(pid), 0);
      now.forEach((name) => seen.add(name));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const doc = JSON.parse((await run).stdout);
const MiB = 2 ** 20;
console.log(`k=${k}, ${values.iterations} reads of 64 KiB per worker, one round (PSS of the whole tree, MiB):`);
for (const mode of ['workers', 'procs']) {
  const tool = doc.rounds[0][mode].memory.pssBytes;
  const hand = byHand[mode];
  console.log(
    `  ${mode}: mmapbench ${(tool / MiB).toFixed(1)}, by hand ${(hand / MiB).toFixed(1)} (${(((tool - hand) / hand) * 100).toFixed(1)}%)`,
  );
}
