import { readFileSync } from 'node:fs';

/** The canonical reproducer: every op allocates a fresh Buffer the size of the file. */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'readfilesync',
  description: 'fs.readFileSync(file) per op (allocates a new Buffer each time)',
  params: {},
  run(ctx, iterations) {
    const { file } = ctx;
    for (let i = 0; i < iterations; i++) readFileSync(file);
  },
});
