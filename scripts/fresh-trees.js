#!/usr/bin/env node
// Fresh trees without mmapbench: what a user's own script sees when it starts one Worker thread
// (or one child process) at a time and times it. Each tree is a fresh Node process that starts
// one worker (a thread behind a SharedArrayBuffer barrier, or a forked child behind none), which
// reads a 64 KiB file with readFileSync `--warmup` times untimed, then `--ops` times timed in
// `--chunk`-op chunks. Optionally each tree runs under `perf stat` (page faults and the entries
// to mprotect, madvise, munmap, mmap and brk, counted for the whole tree, its start included).
// Modes take turns tree by tree. Prints each tree's ops/s, its chunks' rates and its counts per
// op (over every read the tree made, its warm-up's too), then per mode the rates sorted. Nothing
// here is asserted: read the output (docs/how-it-measures.md, "Why fresh trees differ").
//
//   node scripts/fresh-trees.js [--trees 16] [--modes thread,child] [--ops 12000] [--warmup 8000]
//     [--chunk 2000] [--perf] [--env NAME=VALUE ...]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);
const COUNTED = [
  'page-faults',
  ...['mprotect', 'madvise', 'munmap', 'mmap', 'brk'].map((c) => `syscalls:sys_enter_${c}`),
];

/** The timed work: `warmup` untimed reads, then `ops` timed in chunks; the chunks' ns. */
function work(/** @type {{ file: string, ops: number, warmup: number, chunk: number }} */ job) {
  for (let i = 0; i < job.warmup; i++) readFileSync(job.file);
  const chunks = [];
  for (let done = 0; done < job.ops; done += job.chunk) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < job.chunk; i++) readFileSync(job.file);
    chunks.push(Number(process.hrtime.bigint() - start));
  }
  return chunks;
}

const role = process.argv[2];
if (!isMainThread) {
  // a thread: wait at the barrier, then work
  const { job, barrier } = workerData;
  Atomics.wait(new Int32Array(barrier), 0, 0);
  parentPort?.postMessage(work(job));
} else if (role === '--child') {
  process.once('message', (/** @type {any} */ job) => process.send?.(work(job), () => process.exit(0)));
} else if (role === '--tree') {
  // one fresh tree: its parent starts one worker and prints the chunks' ns
  const [, , , mode, json] = process.argv;
  const job = JSON.parse(json);
  if (mode === 'thread') {
    const barrier = new SharedArrayBuffer(4);
    const worker = new Worker(me, { workerData: { job, barrier } });
    worker.once('online', () => {
      Atomics.store(new Int32Array(barrier), 0, 1);
      Atomics.notify(new Int32Array(barrier), 0);
    });
    worker.once('message', (chunks) => {
      console.log(JSON.stringify(chunks));
      worker.terminate();
    });
  } else {
    const child = fork(me, ['--child']);
    child.once('message', (chunks) => {
      console.log(JSON.stringify(chunks));
      child.kill();
    });
    child.send(job);
  }
} else main();

function main() {
  const { values } = parseArgs({
    options: {
      trees: { type: 'string', default: '16' },
      modes: { type: 'string', default: 'thread,child' },
      ops: { type: 'string', default: '12000' },
      warmup: { type: 'string', default: '8000' },
      chunk: { type: 'string', default: '2000' },
      perf: { type: 'boolean', default: false },
      env: { type: 'string', multiple: true, default: [] },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'fresh-trees-'));
  const file = join(dir, 'data.bin');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  const job = { file, ops: Number(values.ops), warmup: Number(values.warmup), chunk: Number(values.chunk) };
  const env = { ...process.env, ...Object.fromEntries(values.env.map((pair) => pair.split(/=(.*)/s, 2))) };
  const modes = values.modes.split(',');
  /** @type {Record<string, number[]>} */
  const rates = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let t = 0; t < Number(values.trees); t++)
    for (const mode of t % 2 ? [...modes].reverse() : modes) {
      const tree = [me, '--tree', mode, JSON.stringify(job)];
      const perfOut = join(dir, 'perf.txt');
      const run = values.perf
        ? spawnSync('perf', ['stat', '-x,', '-o', perfOut, '-e', COUNTED.join(','), process.execPath, ...tree], {
            env,
            encoding: 'utf8',
          })
        : spawnSync(process.execPath, tree, { env, encoding: 'utf8' });
      const chunks = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]');
      const rate = (job.ops / chunks.reduce((sum, ns) => sum + ns, 0)) * 1e9;
      rates[mode].push(rate);
      const each = chunks.map((/** @type {number} */ ns) => `${((job.chunk / ns) * 1e6).toFixed(0)}k`);
      let counts = '';
      if (values.perf) {
        const lines = readFileSync(perfOut, 'utf8')
          .split('\n')
          .filter((line) => /^\d/.test(line));
        counts = lines
          .map((line) => {
            const [value, , event] = line.split(',');
            return `${event.replace('syscalls:sys_enter_', '')} ${(Number(value) / (job.ops + job.warmup)).toFixed(3)}`;
          })
          .join(', ');
      }
      console.log(
        `${mode} tree ${t + 1}: ${(rate / 1000).toFixed(1)}k ops/s; chunks ${each.join(' ')}${counts ? `; per op: ${counts}` : ''}`,
      );
    }
  for (const mode of modes)
    console.log(
      `${mode}: ${[...rates[mode]]
        .sort((a, b) => a - b)
        .map((r) => `${(r / 1000).toFixed(1)}k`)
        .join(' ')}`,
    );
  rmSync(dir, { recursive: true, force: true });
}
