/**
 * The allocation at the heart of readFileSync without the syscalls: at 8 KiB and above (half of
 * the 8 KiB Buffer pool and more) each Buffer gets its own backing store from malloc.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'alloc-unsafe',
  description: 'Buffer.allocUnsafe(--size) per op, first and last byte written',
  readsFile: false,
  reference:
    'platformatic/node-worker-mmap-lock-contention, Scope: Buffer.allocUnsafe/alloc of 8 KiB and more takes the ' +
    'same path as readFileSync (published 64 KiB k=8 workers/procs 0.55-0.65, Hypothesis 1); no figure of its own',
  params: {
    size: { description: 'bytes per Buffer (accepts 64k, 1m)', type: 'size', default: 64 * 1024 },
  },
  run(ctx, iterations) {
    const { size } = ctx.params;
    let sink = 0;
    for (let i = 0; i < iterations; i++) {
      const buffer = Buffer.allocUnsafe(size);
      buffer[0] = i;
      buffer[size - 1] = i;
      sink += buffer[0];
    }
    ctx.state.sink = sink; // keeps the loop from being optimized away
  },
});
