#!/usr/bin/env node
// What timing ops one by one (the latency tenth of every built-in task's window) costs: in one
// process, the same task's ops run as one call and as timed single calls, alternating, many
// times; the extra ns per op, its share of an op, and its share of a default window (at most
// 1,000 timed ops in it).
//   node scripts/latency-overhead.js [--file small] [--task readfilesync] [--ops 1000] [--repeats 40]
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';
import { resolveFile } from '../src/run/fixtures.js';
import { timeEach } from '../src/run/task-runner.js';

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: 'small' },
    task: { type: 'string', default: 'readfilesync' },
    ops: { type: 'string', default: '1000' },
    repeats: { type: 'string', default: '40' },
  },
});
const ops = Number(values.ops);
const file = resolveFile(values.file);
const { default: task } = await import(`../src/tasks/${values.task}.js`);
/** @type {import('../src/tasks/index.js').TaskContext} */
const ctx = { file: file.path, fileSize: file.size, params: {}, index: 0, k: 1, mode: 'procs', state: {} };
await task.setup?.(ctx);
await task.run(ctx, ops * 5); // warm

const batch = [];
const timed = [];
for (let i = 0; i < Number(values.repeats); i++) {
  let from = process.hrtime.bigint();
  await task.run(ctx, ops);
  batch.push(Number(process.hrtime.bigint() - from) / ops);
  from = process.hrtime.bigint();
  await timeEach(task, ctx, ops);
  timed.push(Number(process.hrtime.bigint() - from) / ops);
}
const [plain, each] = [median(batch), median(timed)];
const extra = each - plain;
console.log(`${values.task}, file ${file.label}, ${ops} ops × ${values.repeats}, alternating (medians):`);
console.log(`  as one call ${plain.toFixed(0)} ns per op; timed one by one ${each.toFixed(0)} ns per op`);
console.log(`  extra ${extra.toFixed(0)} ns per timed op: ${((100 * extra) / plain).toFixed(1)}% of an op`);
for (const windowOps of [3600, 30000])
  console.log(
    `  in a window of ${windowOps} ops with ${Math.min(ops, windowOps / 10)} timed: ${((100 * extra * Math.min(ops, windowOps / 10)) / (plain * windowOps)).toFixed(2)}% of the window`,
  );
