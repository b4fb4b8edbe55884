import { closeSync, openSync, readSync } from 'node:fs';

/** The mitigation: the same open/read/close syscalls, into one buffer allocated in setup. */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'reuse-buffer',
  description: 'openSync + readSync into a buffer allocated once + closeSync per op',
  params: {},
  setup(ctx) {
    ctx.state.buffer = Buffer.allocUnsafe(Math.max(ctx.fileSize, 1));
  },
  run(ctx, iterations) {
    const {
      file,
      state: { buffer },
    } = ctx;
    for (let i = 0; i < iterations; i++) {
      const fd = openSync(file, 'r');
      let offset = 0;
      let n;
      while ((n = readSync(fd, buffer, offset, buffer.length - offset, null)) > 0) {
        offset += n;
        if (offset === buffer.length) break;
      }
      closeSync(fd);
    }
  },
});
