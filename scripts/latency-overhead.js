#!/usr/bin/env node
// What sampling op latency costs a window (every built-in task's window times one op in every
// `every`, see src/run/task-runner.js): in one process, the same task's ops run as one call, as
// the window runs them (one op in every `every` timed, `every` chosen as a cell chooses it), and
// with every op timed; alternating, many times. Prints ns per op of each (medians), what one
// timed op costs, and the sampled window's cost against the 1% it is allowed.
//   node scripts/latency-overhead.js [--file small] [--task readfilesync] [--ops 10000] [--repeats 30]
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';
import { resolveFile } from '../src/run/fixtures.js';
import { latencySampler, runSampled } from '../src/run/latency-sampler.js';

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: 'small' },
    task: { type: 'string', default: 'readfilesync' },
    ops: { type: 'string', default: '10000' },
    repeats: { type: 'string', default: '30' },
  },
});
const ops = Number(values.ops);
const file = resolveFile(values.file);
const { default: task } = await import(`../src/tasks/${values.task}.js`);
/** @type {import('../src/tasks/index.js').TaskContext} */
const ctx = { file: file.path, fileSize: file.size, params: {}, index: 0, k: 1, mode: 'procs', state: {} };
await task.setup?.(ctx);
let from = process.hrtime.bigint();
await task.run(ctx, ops); // warm, and how long an op takes, as a cell's warmup says
const opNs = Number(process.hrtime.bigint() - from) / ops;
const { every } = latencySampler(opNs, ops);

const perOp = {
  plain: /** @type {number[]} */ ([]),
  sampled: /** @type {number[]} */ ([]),
  each: /** @type {number[]} */ ([]),
};
let timed = 0;
for (let i = 0; i < Number(values.repeats); i++) {
  from = process.hrtime.bigint();
  await task.run(ctx, ops);
  perOp.plain.push(Number(process.hrtime.bigint() - from) / ops);
  const sampler = latencySampler(opNs, ops);
  from = process.hrtime.bigint();
  await runSampled(task, ctx, ops, sampler);
  perOp.sampled.push(Number(process.hrtime.bigint() - from) / ops);
  timed = sampler.timed;
  const everyOp = { ...latencySampler(opNs, ops), every: 1 };
  from = process.hrtime.bigint();
  await runSampled(task, ctx, ops, everyOp);
  perOp.each.push(Number(process.hrtime.bigint() - from) / ops);
}
const [plain, sampled, each] = [median(perOp.plain), median(perOp.sampled), median(perOp.each)];
const pct = (/** @type {number} */ x) => `${((100 * (x - plain)) / plain).toFixed(2)}%`;
console.log(`${values.task}, file ${file.label}, ${ops} ops × ${values.repeats}, alternating (medians of ns per op):`);
console.log(`  as one call ${plain.toFixed(0)}`);
console.log(
  `  sampled as a window is (one op in every ${every} timed, ${timed} timed) ${sampled.toFixed(0)}: ${pct(sampled)}`,
);
console.log(`  every op timed ${each.toFixed(0)}: ${pct(each)}, so a timed op costs ${(each - plain).toFixed(0)} ns`);
