#!/usr/bin/env node
// Bare scripts of the investigation's shape, for checking mmapbench's figures by hand: K fresh
// Worker threads behind a SharedArrayBuffer barrier, or K child processes behind an IPC barrier
// that releases all once all are ready; each does `--warm` untimed readFileSync ops, then
// `--ops` timed ones (a new Buffer each op), and reads the clock every `--chunk` ops.
// Throughput is K × ops / (the last one done − the first one started), as the investigation
// computed it; chunks are each worker's rate over its first, second, ... chunk of ops.
//   node scripts/fresh-warm.js --mode workers|procs -k 8 --ops 2000 [--warm 0] [--chunk 500] [--file PATH]
// prints one JSON line: { mode, k, ops, warm, throughput, chunks: [[ops/s of chunk 1 per worker], ...] }
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** The timed loop: returns its start, its end and the clock at each chunk's end (ns). */
function loop({ file, ops, warm, chunk }) {
  for (let i = 0; i < warm; i++) readFileSync(file);
  const marks = [];
  const start = process.hrtime.bigint();
  for (let i = 1; i <= ops; i++) {
    readFileSync(file);
    if (i % chunk === 0) marks.push(Number(process.hrtime.bigint() - start));
  }
  return { start: String(start), end: String(process.hrtime.bigint()), marks };
}

if (process.argv[2] === '--child') {
  const options = JSON.parse(process.argv[3]);
  process.once('message', () => process.send(loop(options), () => process.disconnect()));
  process.send('ready');
} else if (!isMainThread) {
  const { options, barrier } = workerData;
  const flag = new Int32Array(barrier);
  Atomics.add(flag, 1, 1);
  Atomics.wait(flag, 0, 0);
  parentPort?.postMessage(loop(options));
} else {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string', default: 'workers' },
      k: { type: 'string', short: 'k', default: '2' },
      ops: { type: 'string', default: '2000' },
      warm: { type: 'string', default: '0' },
      chunk: { type: 'string', default: '500' },
      file: { type: 'string', default: '/tmp/fresh-warm-64k' },
    },
  });
  const k = Number(values.k);
  const options = {
    file: values.file,
    ops: Number(values.ops),
    warm: Number(values.warm),
    chunk: Number(values.chunk),
  };
  if (!existsSync(options.file)) writeFileSync(options.file, Buffer.alloc(64 * 1024, 7));
  let results;
  if (values.mode === 'workers') {
    const barrier = new SharedArrayBuffer(8);
    const flag = new Int32Array(barrier);
    const workers = Array.from(
      { length: k },
      () => new Worker(new URL(import.meta.url), { workerData: { options, barrier } }),
    );
    const done = workers.map((worker) => new Promise((resolve) => worker.once('message', resolve)));
    while (Atomics.load(flag, 1) < k) await new Promise((resolve) => setTimeout(resolve, 1));
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    results = await Promise.all(done);
  } else {
    const children = Array.from({ length: k }, () =>
      fork(new URL(import.meta.url), ['--child', JSON.stringify(options)]),
    );
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('message', resolve))));
    const done = children.map((child) => new Promise((resolve) => child.once('message', resolve)));
    for (const child of children) child.send('go');
    results = await Promise.all(done);
  }
  const first = Math.min(...results.map((r) => Number(BigInt(r.start))));
  const last = Math.max(...results.map((r) => Number(BigInt(r.end))));
  const chunks = results[0].marks.map((_, i) =>
    results.map((r) => Math.round((options.chunk * 1e9) / (r.marks[i] - (i ? r.marks[i - 1] : 0)))),
  );
  const throughput = Math.round((k * options.ops * 1e9) / (last - first));
  process.stdout.write(`${JSON.stringify({ mode: values.mode, k, ...options, throughput, chunks })}\n`);
}
