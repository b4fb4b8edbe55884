import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUFFER_OPTION } from '../reference/node-changes.js';

/**
 * Node's own answer to the investigation (nodejs/node#63600, pull request 63634): readFileSync
 * reads into a buffer the caller passes, so a hot path reuses its memory without openSync and
 * readSync. A Node without the option ignores it and returns a new Buffer, so every read here
 * checks that the bytes landed in the caller's memory.
 */
/** @typedef {import('./index.js').Task} Task */

/**
 * Whether this Node's readFileSync reads into a given buffer: it reads this module's own file.
 * @returns {boolean}
 */
export function bufferOptionWorks() {
  const file = fileURLToPath(import.meta.url);
  const mine = Buffer.allocUnsafeSlow(statSync(file).size);
  return readsInto(readFileSync(file, /** @type {any} */ ({ buffer: mine })), mine);
}

// Buffers of their own (allocUnsafeSlow): a small one from Buffer's shared pool would share its
// memory with the new Buffer a Node without the option returns.
/** Whether `result` is a view of `buffer`'s memory. */
const readsInto = (/** @type {Buffer} */ result, /** @type {Buffer} */ buffer) =>
  result.buffer === buffer.buffer && result.byteOffset === buffer.byteOffset;

const refusal = () =>
  `its fs.readFileSync has no buffer option (it returns a new Buffer); the option came in Node ${BUFFER_OPTION.since.join(' and ')}: run on one of those, e.g. --node 26`;

export default /** @satisfies {Task} */ ({
  name: 'readfilesync-into',
  description:
    "fs.readFileSync(file, { buffer }) per op into one buffer allocated in setup (Node's fix; 24.19+, 26.4+)",
  params: {
    into: {
      description: 'buffer: one Buffer passed as is; function: a function from the size to a Buffer kept per size',
      type: 'string',
      choices: ['buffer', 'function'],
      default: 'buffer',
    },
  },
  reference: 'nodejs/node#63600, "fs: add buffer option to readFileSync" (pull request 63634; Node 24.19.0, 26.4.0)',
  unavailable: () => (bufferOptionWorks() ? null : refusal()),
  setup(ctx) {
    const buffer = Buffer.allocUnsafeSlow(Math.max(ctx.fileSize, 1));
    /** @type {Map<number, Buffer>} */
    const bySize = new Map([[buffer.length, buffer]]);
    ctx.state.buffer = buffer;
    ctx.state.option =
      ctx.params.into === 'function'
        ? (/** @type {number} */ size) => bySize.get(size) ?? bySize.set(size, Buffer.allocUnsafeSlow(size)).get(size)
        : buffer;
  },
  run(ctx, iterations) {
    const {
      file,
      state: { buffer, option },
    } = ctx;
    const options = /** @type {any} */ ({ buffer: option });
    for (let i = 0; i < iterations; i++) {
      // one comparison per read: a Node that ignored the option would measure plain readFileSync
      if (!readsInto(readFileSync(file, options), buffer)) throw new Error(refusal());
    }
  },
});
