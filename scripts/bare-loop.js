// The hand-written loop the harness is measured against: the same calls as the readfilesync
// and reuse-buffer tasks, no task module, no barrier, no IPC.
//   node scripts/bare-loop.js TASK FILE ITERATIONS WARMUP [--thread]
// Prints ops/s of the timed loop. With --thread the loop runs in one Worker thread.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const loops = {
  readfilesync(file, n) {
    for (let i = 0; i < n; i++) readFileSync(file);
  },
  'reuse-buffer'(file, n, buffer) {
    for (let i = 0; i < n; i++) {
      const fd = openSync(file, 'r');
      let offset = 0;
      let read;
      while ((read = readSync(fd, buffer, offset, buffer.length - offset, null)) > 0) {
        offset += read;
        if (offset === buffer.length) break;
      }
      closeSync(fd);
    }
  },
};

function timed({ task, file, iterations, warmup }) {
  const buffer = Buffer.allocUnsafe(Math.max(statSync(file).size, 1));
  loops[task](file, warmup, buffer);
  const start = process.hrtime.bigint();
  loops[task](file, iterations, buffer);
  return (iterations * 1e9) / Number(process.hrtime.bigint() - start);
}

if (isMainThread) {
  const [task, file, iterations, warmup, thread] = process.argv.slice(2);
  const job = { task, file, iterations: Number(iterations), warmup: Number(warmup) };
  if (thread === '--thread') {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.on('message', (rate) => console.log(rate));
  } else {
    console.log(timed(job));
  }
} else {
  parentPort.postMessage(timed(workerData));
}
