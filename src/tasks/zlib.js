import { deflateSync } from 'node:zlib';

/** zlib allocates its output buffers (and its stream state) per call. */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'zlib',
  description: 'zlib.deflateSync of a --size buffer of text-like data per op',
  readsFile: false,
  reference:
    'platformatic/node-worker-mmap-lock-contention, Scope: deflate/inflate allocate large output buffers per operation; no figure of its own',
  params: {
    size: { description: 'bytes compressed per op (accepts 64k, 1m)', type: 'size', default: 64 * 1024 },
  },
  setup(ctx) {
    // compressible, like the JSON and HTML that servers deflate: words from a small alphabet
    const words = ['worker', 'thread', 'process', 'mmap', 'lock', 'arena', 'buffer', 'pool', 'glibc', 'kernel'];
    let text = '';
    for (let i = 0; text.length < ctx.params.size; i++) text += `${words[(i * 7) % words.length]}${i % 97} `;
    ctx.state.input = Buffer.from(text.slice(0, ctx.params.size));
  },
  run(ctx, iterations) {
    const { input } = ctx.state;
    let bytes = 0;
    for (let i = 0; i < iterations; i++) bytes += deflateSync(input).length;
    ctx.state.bytes = bytes;
  },
});
