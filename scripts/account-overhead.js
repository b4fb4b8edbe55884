#!/usr/bin/env node
// What does the per-thread account cost inside a timed window, or (--off latency) the sampling of
// op latency across it? A warm process (and a warm Worker thread in it) runs the cells' own
// measure() on a task, alternating windows with it and without it (MMAPBENCH_ACCOUNT=off, or
// MMAPBENCH_LATENCY=off), so each pair of windows shares the process's speed.
// Pairs within one process are not independent (a process keeps a speed of its own for its
// life), so the replicate is the process: each of --processes fresh processes gives the
// geometric mean of its --rounds pairs, and the interval is taken over the processes, as
// compare takes it over rounds (t interval on log ratios).
// --aa runs both arms without it: the script's own bias, which should be none.
//   node scripts/account-overhead.js [--off account|latency] [--task readfilesync] [--processes 20] [--rounds 30] [--iterations 3000] [--file med] [--aa]
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { resolveFile } from '../src/run/fixtures.js';
import { measure, prepare } from '../src/run/task-runner.js';
import { minorFaults } from '../src/run/thread-counters.js';
import { ratioStats } from '../src/stats/ratio.js';

const { values } = parseArgs({
  options: {
    task: { type: 'string', default: 'readfilesync' },
    processes: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '30' },
    iterations: { type: 'string', default: '3000' },
    file: { type: 'string', default: 'med' },
    // what the second arm goes without
    off: { type: 'string', default: 'account' },
    // one replicate: print this process's and its Worker's geometric means as JSON
    child: { type: 'boolean', default: false },
    // the script's own check: both arms without the account, so the ratio should be 1
    aa: { type: 'boolean', default: false },
  },
});

/**
 * Pairs of windows, alternating which goes first: the account's throughput over the bare one's,
 * and each arm's minor page faults per op (read outside the windows), which say whether the
 * account changes how the allocator behaves rather than what the ops cost.
 */
async function pairs({ task, rounds, iterations, file, aa, off }) {
  const variable = off === 'latency' ? 'MMAPBENCH_LATENCY' : 'MMAPBENCH_ACCOUNT';
  const spec = {
    taskUrl: pathToFileURL(new URL(`../src/tasks/${task}.js`, import.meta.url).pathname).href,
    file: file.path,
    fileSize: file.size,
    params: {},
    k: 1,
    warmup: 4 * iterations,
    iterations,
    metrics: [],
    // as the cells of a built-in task run it: the window in tenths (src/run/plan.js)
    slices: true,
  };
  const prepared = await prepare(spec, 0, 'procs');
  const faults = { on: 0, off: 0 };
  const rate = async (/** @type {'on'|'off'} */ account) => {
    process.env[variable] = aa ? 'off' : account;
    const before = minorFaults() ?? 0;
    const sample = await measure(prepared, iterations);
    faults[account] += (minorFaults() ?? 0) - before;
    return (iterations * 1e9) / Number(BigInt(sample.end) - BigInt(sample.start));
  };
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    /** @type {Array<'on'|'off'>} */
    const order = round % 2 ? ['on', 'off'] : ['off', 'on'];
    const got = { on: 0, off: 0 };
    for (const account of order) got[account] = await rate(account);
    ratios.push(got.on / got.off);
  }
  const perOp = (/** @type {number} */ n) => n / (rounds * iterations);
  return { ratios, faults: { on: perOp(faults.on), off: perOp(faults.off) } };
}

const options = {
  task: values.task,
  rounds: Number(values.rounds),
  iterations: Number(values.iterations),
  file: resolveFile(values.file),
  aa: values.aa,
  off: values.off,
};
if (!['account', 'latency'].includes(options.off)) throw new Error('--off takes account or latency');
const geomean = (/** @type {number[]} */ ratios) => ratioStats(ratios).geomean;
if (!isMainThread) {
  parentPort?.postMessage(await pairs(workerData));
} else if (values.child) {
  const inProcess = await pairs(options);
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  /** @type {Awaited<ReturnType<typeof pairs>>} */
  const inWorker = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  console.log(
    JSON.stringify({
      process: geomean(inProcess.ratios),
      worker: geomean(inWorker.ratios),
      faults: { process: inProcess.faults, worker: inWorker.faults },
    }),
  );
} else {
  const processes = Number(values.processes);
  console.log(
    `${options.off} overhead: task ${options.task}, file ${options.file.label}, ${options.iterations} ops per window, ` +
      `${processes} fresh processes of ${options.rounds} pairs each, node ${process.version}` +
      (options.aa ? `; A/A: both arms without the ${options.off}` : ''),
  );
  /** @type {{ process: number[], worker: number[] }} */
  const replicates = { process: [], worker: [] };
  /** @type {{ process: Array<{ on: number, off: number }>, worker: Array<{ on: number, off: number }> }} */
  const faults = { process: [], worker: [] };
  const self = fileURLToPath(import.meta.url);
  const args = [
    '--off',
    options.off,
    '--task',
    options.task,
    '--rounds',
    String(options.rounds),
    '--iterations',
    String(options.iterations),
  ];
  if (values.aa) args.push('--aa');
  for (let i = 0; i < processes; i++) {
    const { stdout } = await execa(process.execPath, [self, ...args, '--file', options.file.path, '--child']);
    const one = JSON.parse(stdout);
    replicates.process.push(one.process);
    replicates.worker.push(one.worker);
    faults.process.push(one.faults.process);
    faults.worker.push(one.faults.worker);
  }
  const mean = (/** @type {number[]} */ values) => values.reduce((sum, v) => sum + v, 0) / values.length;
  for (const [where, ratios, perOp] of /** @type {const} */ ([
    ['process', replicates.process, faults.process],
    ['Worker thread', replicates.worker, faults.worker],
  ])) {
    const stats = ratioStats(ratios);
    const ci = stats.ci95 ? `${stats.ci95[0].toFixed(3)}-${stats.ci95[1].toFixed(3)}` : '-';
    const range = `${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}`;
    console.log(
      `${where.padEnd(14)} with / without ${options.off}: ${stats.geomean.toFixed(3)} (95% CI ${ci}); processes ranged ${range}; ` +
        `page faults per op ${mean(perOp.map((f) => f.on)).toFixed(3)} with, ${mean(perOp.map((f) => f.off)).toFixed(3)} without`,
    );
  }
}
