import { readFileSync } from 'node:fs';

/** The canonical reproducer: every op allocates a fresh Buffer the size of the file. */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'readfilesync',
  description: 'fs.readFileSync(file) per op (allocates a new Buffer each time)',
  params: {},
  fixes: [
    {
      name: 'reuse-buffer',
      task: 'reuse-buffer',
      change: 'openSync + readSync into a Buffer allocated once, instead of readFileSync',
    },
    {
      name: 'readfilesync-into',
      task: 'readfilesync-into',
      change: 'readFileSync(path, { buffer }) into a Buffer allocated once (Node 24.21 and 26)',
    },
    {
      name: 'pool-size 256k',
      task: 'pool-size',
      params: { poolSize: 256 * 1024 },
      change: 'Buffer.poolSize = 256 * 1024 in each worker, so reads slice from the pool',
    },
  ],
  run(ctx, iterations) {
    const { file } = ctx;
    for (let i = 0; i < iterations; i++) readFileSync(file);
  },
});
