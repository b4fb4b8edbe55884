import { readFile } from 'node:fs/promises';

/** Async reads still allocate; they only move the syscalls to libuv threadpool threads. */
export default {
  name: 'readfile-async',
  description: 'fs.promises.readFile(file) with --concurrency reads in flight per worker',
  params: {
    concurrency: { description: 'reads in flight per worker/process', type: 'integer', default: 1 },
  },
  async run(ctx, iterations) {
    const { file } = ctx;
    let next = 0;
    const lane = async () => {
      while (next < iterations) {
        next++;
        await readFile(file);
      }
    };
    const lanes = Math.min(ctx.params.concurrency, iterations);
    await Promise.all(Array.from({ length: lanes }, lane));
  },
};
