#!/usr/bin/env node
// How much does the harness cost? At k=1, the harness's throughput for readfilesync and
// reuse-buffer next to a bare hand-written loop doing the same calls, in the same kind of
// fresh process (procs mode vs a bare process; workers mode vs a bare Worker thread); and the
// harness with its per-thread account (counters around the window, the window in tenths) next
// to the harness without it (MMAPBENCH_ACCOUNT=off in the cells).
// Rounds interleave all variants so machine drift hits every one; each harness/bare pair gives
// a ratio, summarized like `compare` does (median, t interval on log ratios).
//   node scripts/overhead.js [--rounds 10] [--iterations 30000] [--file med]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import Table from 'cli-table3';
import { median } from 'simple-statistics';
import { resolveFile } from '../src/run/fixtures.js';
import { ratioStats } from '../src/stats/ratio.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    iterations: { type: 'string', default: '30000' },
    warmup: { type: 'string', default: '7500' }, // a quarter of the iterations, as the CLI's default
    file: { type: 'string', default: 'med' },
  },
});
const rounds = Number(values.rounds);
const file = resolveFile(values.file);
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const bare = fileURLToPath(new URL('./bare-loop.js', import.meta.url));

async function harness(mode, task, env = []) {
  const { stdout } = await execa(process.execPath, [
    bin,
    mode,
    '-k',
    '1',
    '--task',
    task,
    '--file',
    file.path,
    '--iterations',
    values.iterations,
    '--warmup',
    values.warmup,
    ...env,
    '--json',
    '--no-save',
  ]);
  return JSON.parse(stdout)[mode].throughput.median;
}

async function bareLoop(mode, task) {
  const args = [bare, task, file.path, values.iterations, values.warmup, ...(mode === 'workers' ? ['--thread'] : [])];
  const { stdout } = await execa(process.execPath, args);
  return Number(stdout);
}

const pairs = ['readfilesync', 'reuse-buffer'].flatMap((task) =>
  ['procs', 'workers'].map((mode) => ({
    task,
    mode,
    harness: [],
    bare: [],
    ratios: [],
    unaccounted: [],
    accountRatios: [],
  })),
);
const withoutAccount = (mode, task) => harness(mode, task, ['--env', 'MMAPBENCH_ACCOUNT=off']);

for (let round = 1; round <= rounds; round++) {
  process.stderr.write(`round ${round}/${rounds}\r`);
  for (const pair of round % 2 ? pairs : [...pairs].reverse()) {
    const order = round % 2 ? [harness, bareLoop, withoutAccount] : [withoutAccount, bareLoop, harness];
    const got = [];
    for (const run of order) got.push(await run(pair.mode, pair.task));
    const [h, b, off] = round % 2 ? got : [got[2], got[1], got[0]];
    pair.harness.push(h);
    pair.bare.push(b);
    pair.ratios.push(h / b);
    pair.unaccounted.push(off);
    pair.accountRatios.push(h / off);
  }
}

const table = new Table({
  head: [
    'task',
    'k=1 as',
    'bare loop ops/s',
    'harness ops/s',
    'harness/bare',
    '95% CI',
    'no account ops/s',
    'with/without account',
    '95% CI',
  ],
  style: { head: [], border: [], compact: true },
});
const fmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
for (const pair of pairs) {
  const stats = ratioStats(pair.ratios);
  const account = ratioStats(pair.accountRatios);
  table.push([
    pair.task,
    pair.mode === 'procs' ? 'process' : 'Worker thread',
    fmt.format(median(pair.bare)),
    fmt.format(median(pair.harness)),
    stats.median.toFixed(3),
    `${stats.ci95[0].toFixed(3)}-${stats.ci95[1].toFixed(3)}`,
    fmt.format(median(pair.unaccounted)),
    account.median.toFixed(3),
    `${account.ci95[0].toFixed(3)}-${account.ci95[1].toFixed(3)}`,
  ]);
}
console.log(
  `harness overhead: ${rounds} interleaved rounds, ${values.iterations} iterations, file ${file.label}, node ${process.version}`,
);
console.log(table.toString());
