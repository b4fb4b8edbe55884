#!/usr/bin/env node
// What does the per-thread account cost inside a timed window? One warm process (and one warm
// Worker thread) runs the cells' own measure() on a task, alternating windows with the account
// and without it (MMAPBENCH_ACCOUNT=off), so each pair of windows shares the process's speed;
// the ratio of their throughputs, summarized as compare does (t interval on log ratios).
//   node scripts/account-overhead.js [--task readfilesync] [--rounds 40] [--iterations 3000] [--file med]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { resolveFile } from '../src/run/fixtures.js';
import { measure, prepare } from '../src/run/task-runner.js';
import { ratioStats } from '../src/stats/ratio.js';

const { values } = parseArgs({
  options: {
    task: { type: 'string', default: 'readfilesync' },
    rounds: { type: 'string', default: '40' },
    iterations: { type: 'string', default: '3000' },
    file: { type: 'string', default: 'med' },
  },
});

/** Pairs of windows, alternating which goes first; the account's throughput over the bare one's. */
async function pairs({ task, rounds, iterations, file }) {
  const spec = {
    taskUrl: pathToFileURL(new URL(`../src/tasks/${task}.js`, import.meta.url).pathname).href,
    file: file.path,
    fileSize: file.size,
    params: {},
    k: 1,
    warmup: 4 * iterations,
    iterations,
    metrics: [],
  };
  const prepared = await prepare(spec, 0, 'procs');
  const rate = async (/** @type {string} */ account) => {
    process.env.MMAPBENCH_ACCOUNT = account;
    const sample = await measure(prepared, iterations);
    return (iterations * 1e9) / Number(BigInt(sample.end) - BigInt(sample.start));
  };
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['on', 'off'] : ['off', 'on'];
    const got = { on: 0, off: 0 };
    for (const account of order) got[/** @type {'on'|'off'} */ (account)] = await rate(account);
    ratios.push(got.on / got.off);
  }
  return ratios;
}

const options = {
  task: values.task,
  rounds: Number(values.rounds),
  iterations: Number(values.iterations),
  file: resolveFile(values.file),
};
if (!isMainThread) {
  parentPort?.postMessage(await pairs(workerData));
} else {
  const show = (/** @type {string} */ where, /** @type {number[]} */ ratios) => {
    const stats = ratioStats(ratios);
    const ci = stats.ci95 ? `${stats.ci95[0].toFixed(3)}-${stats.ci95[1].toFixed(3)}` : '-';
    console.log(
      `${where.padEnd(14)} with / without account: ${stats.geomean.toFixed(3)} (95% CI ${ci}), ${ratios.length} pairs`,
    );
  };
  console.log(
    `account overhead: task ${options.task}, file ${options.file.label}, ${options.iterations} ops per window, node ${process.version}`,
  );
  show('process', await pairs(options));
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  show('Worker thread', await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject)));
}
