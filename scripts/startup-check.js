#!/usr/bin/env node
// Does compare's start-up agree with a parent of our own that adds K workers? For each mode this
// script starts a fresh parent Node (as an app's main process) that starts K Worker threads or
// forks K children, each of which imports the default task and says it is ready; the parent
// times its first request to the last ready. Parents alternate by mode, in the environment the
// cells get (the CLI's, less NODE_EXTRA_CA_CERTS). Then it runs a default compare and sets each
// mode's start-up median beside the by-hand median.
//   node scripts/startup-check.js [-k 2] [--runs 10] [--max-time 20]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { median } from 'simple-statistics';

const { values } = parseArgs({
  options: {
    k: { type: 'string', default: '2' },
    runs: { type: 'string', default: '10' },
    'max-time': { type: 'string', default: '20' },
  },
});
const k = Number(values.k);
const dir = mkdtempSync(join(tmpdir(), 'mmapbench-startup-check-'));
const task = new URL('../src/tasks/readfilesync.js', import.meta.url).href;

// a worker, thread or process: load the task, run its setup, say ready
writeFileSync(
  join(dir, 'worker.mjs'),
  `import { parentPort } from 'node:worker_threads';
const { default: task } = await import(${JSON.stringify(task)});
await task.setup?.({ file: '/dev/null', params: {}, state: {} });
if (parentPort) parentPort.postMessage('ready');
else process.send('ready', () => process.disconnect());
`,
);
// the app: starts K workers of one kind, prints the ms from its first request to the last ready
writeFileSync(
  join(dir, 'parent.mjs'),
  `import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
const [mode, k] = [process.argv[2], Number(process.argv[3])];
const worker = new URL('./worker.mjs', import.meta.url);
let ready = 0;
const started = process.hrtime.bigint();
const done = () => {
  if (++ready < k) return;
  console.log(Number(process.hrtime.bigint() - started) / 1e6);
  process.exit(0);
};
for (let i = 0; i < k; i++) {
  if (mode === 'workers') new Worker(worker).once('message', done);
  else fork(worker, { execArgv: [] }).once('message', done);
}
`,
);

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
/** @type {Record<string, number[]>} */
const byHand = { workers: [], procs: [] };
for (let run = 0; run < Number(values.runs); run++)
  for (const mode of run % 2 ? ['procs', 'workers'] : ['workers', 'procs']) {
    const { stdout } = await execa(process.execPath, [join(dir, 'parent.mjs'), mode, String(k)], {
      env,
      extendEnv: false,
    });
    byHand[mode].push(Number(stdout));
  }

const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const { stdout } = await execa(process.execPath, [
  bin,
  'compare',
  '-k',
  String(k),
  '--max-time',
  values['max-time'],
  '--json',
  '--no-save',
]);
const doc = JSON.parse(stdout);
console.log(`k=${k}: start-up, from the parent's first request to the last worker ready (ms, median):`);
for (const mode of ['workers', 'procs']) {
  const tool = doc[mode].readyMs;
  const hand = median(byHand[mode]);
  console.log(
    `  ${mode}: mmapbench ${tool.median.toFixed(1)} over ${tool.samples.length} rounds, by hand ${hand.toFixed(1)} over ${byHand[mode].length} parents (${(((tool.median - hand) / hand) * 100).toFixed(1)}%)`,
  );
}
