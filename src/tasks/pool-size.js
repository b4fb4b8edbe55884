import { readFileSync } from 'node:fs';

/**
 * Buffer.poolSize is per realm, so setting it here changes only this worker or process.
 * readFileSync slices from the pool when the file is smaller than poolSize / 2.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'pool-size',
  description: 'fs.readFileSync(file) per op with Buffer.poolSize set to --pool-size in setup',
  params: {
    poolSize: { description: 'Buffer.poolSize in bytes (accepts 256k, 1m)', type: 'size', default: 256 * 1024 },
  },
  fixes: [
    { name: 'pool-size 1m', params: { poolSize: 1024 * 1024 }, change: 'Buffer.poolSize = 1024 * 1024 in each worker' },
    { name: 'pool-size 64k', params: { poolSize: 64 * 1024 }, change: 'Buffer.poolSize = 64 * 1024 in each worker' },
    {
      name: 'reuse-buffer',
      task: 'reuse-buffer',
      change: 'openSync + readSync into a Buffer allocated once, instead of readFileSync',
    },
  ],
  setup(ctx) {
    Buffer.poolSize = ctx.params.poolSize;
  },
  run(ctx, iterations) {
    const { file } = ctx;
    for (let i = 0; i < iterations; i++) readFileSync(file);
  },
});
