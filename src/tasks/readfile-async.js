import { readFile } from 'node:fs/promises';
import { inFlight } from './in-flight.js';

/** Async reads still allocate; they only move the syscalls to libuv threadpool threads. */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'readfile-async',
  description: 'fs.promises.readFile(file) with --concurrency reads in flight per worker',
  params: {
    concurrency: { description: 'reads in flight per worker/process', type: 'integer', default: 1 },
  },
  async run(ctx, iterations) {
    const { file } = ctx;
    await inFlight(ctx.params.concurrency, iterations, () => readFile(file));
  },
});
