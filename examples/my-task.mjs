// A complete task module: run it with
//   npx mmapbench compare --task ./my-task.mjs --param chunk=32k
// (.mjs: an ES module whatever the project's "type"; `mmapbench init-task NAME` writes a copy)
// It builds a response body from chunks the way a body parser or a framing protocol does,
// allocating a fresh Buffer per op (Buffer.concat), the allocation pattern the harness is about.

/** @type {import('mmapbench/src/tasks/index.js').Task} */
export default {
  name: 'concat-chunks',
  description: 'Buffer.concat of 4 chunks read from the file, per op',
  params: {
    chunk: { description: 'bytes per chunk', type: 'size', default: 16 * 1024 },
  },

  // Once per worker or process, before warmup and outside the timed loop.
  async setup(ctx) {
    const { readFile } = await import('node:fs/promises');
    const data = await readFile(ctx.file);
    const size = Math.min(ctx.params.chunk, data.length);
    ctx.state.chunks = [0, 1, 2, 3].map(() => data.subarray(0, size));
  },

  // The timed loop: do `iterations` ops. The harness calls it once per cell.
  run(ctx, iterations) {
    const { chunks } = ctx.state;
    let bytes = 0;
    for (let i = 0; i < iterations; i++) bytes += Buffer.concat(chunks).length;
    ctx.state.bytes = bytes; // keep the result alive so the work is not optimized away
  },

  // Once per worker or process, after the timed loop.
  teardown(ctx) {
    ctx.state.chunks = null;
  },
};
