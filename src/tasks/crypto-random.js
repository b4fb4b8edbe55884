import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * randomBytes allocates a fresh Buffer per call; randomFillSync fills one the caller owns,
 * which is the reuse mitigation applied to crypto (--param reuse=yes).
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'crypto-random',
  description: 'crypto.randomBytes(--size) per op; with --param reuse=yes, randomFillSync into one buffer',
  readsFile: false,
  reference:
    'platformatic/node-worker-mmap-lock-contention, Scope and mitigation 1: crypto.randomBytes allocates per call, randomFillSync(buf) is the reuse fix; no figure of its own',
  params: {
    size: { description: 'random bytes per op (accepts 64k, 1m)', type: 'size', default: 64 * 1024 },
    reuse: {
      description: 'yes: fill one buffer allocated in setup instead of a new one per op',
      type: 'string',
      default: 'no',
      choices: ['no', 'yes'],
    },
  },
  fixes: [
    {
      name: 'reuse=yes',
      params: { reuse: 'yes' },
      change: 'crypto.randomFillSync(buffer) into a Buffer allocated once, instead of randomBytes',
    },
  ],
  setup(ctx) {
    if (ctx.params.reuse === 'yes') ctx.state.buffer = Buffer.allocUnsafe(ctx.params.size);
  },
  run(ctx, iterations) {
    const { size, reuse } = ctx.params;
    let sink = 0;
    if (reuse === 'yes') {
      const { buffer } = ctx.state;
      for (let i = 0; i < iterations; i++) sink += randomFillSync(buffer)[0];
    } else {
      for (let i = 0; i < iterations; i++) sink += randomBytes(size)[0];
    }
    ctx.state.sink = sink;
  },
});
