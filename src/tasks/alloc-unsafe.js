/**
 * The allocation at the heart of readFileSync without the syscalls: from half the Buffer pool up
 * (4 KiB of Node's old 8 KiB pool; 32 KiB of the 64 KiB one, Node 24.18.0 and 26.3.0 on:
 * src/reference/node-changes.js) each Buffer gets its own backing store from malloc; below it,
 * a slice of the pool.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'alloc-unsafe',
  description:
    "Buffer.allocUnsafe(--size) per op, first and last byte written (its own backing store from half the Node's Buffer.poolSize up: 4 KiB, or 32 KiB from Node 24.18 and 26.3)",
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
