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

  // One op. The harness calls it over and over in each timed window, times ops one by one (the
  // op latency p99 rows), and awaits an async op before the next. (A task that must own its
  // loop exports run(ctx, iterations) instead, called once per cell: it gets no latency rows.)
  op(ctx) {
    ctx.state.bytes = Buffer.concat(ctx.state.chunks).length; // kept, so the work is not optimized away
  },

  // Optional: your app's own request, served on the parent's main thread every --request-every
  // ms while the workers run, in place of the default one (allocate and fill --request-size
  // bytes, then a small JSON round trip). Sync or async; `context` has params, size, index, state.
  // request(context) {
  //   return JSON.stringify({ id: context.index, ok: true });
  // },

  // Once per worker or process, after the timed loop.
  teardown(ctx) {
    ctx.state.chunks = null;
  },
};
