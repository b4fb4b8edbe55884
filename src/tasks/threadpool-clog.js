import { close, fstat, open, read } from 'node:fs';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { inFlight } from './in-flight.js';

const [openAsync, fstatAsync, readAsync, closeAsync] = [open, fstat, read, close].map((fn) => promisify(fn));
const deflateAsync = promisify(deflate);
// as the PR's benchmark: one deflate of 1 KiB of 'a' in flight at a time, one after another
const ZIP_INPUT = Buffer.alloc(1024, 'a');

/**
 * The whole file in one threadpool request: what fs.readFile did before it was partitioned.
 * @param {number} fd
 * @param {Buffer} buffer
 */
export async function readWhole(fd, buffer) {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await readAsync(fd, buffer, offset, buffer.length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return offset;
}

/**
 * One request per `chunk` bytes: between them, other work queued on the threadpool gets a turn.
 * @param {number} fd
 * @param {Buffer} buffer
 * @param {number} chunk
 */
export async function readPartitioned(fd, buffer, chunk) {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await readAsync(fd, buffer, offset, Math.min(chunk, buffer.length - offset), offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return offset;
}

/**
 * fs reads and zlib share libuv's threadpool (4 threads unless UV_THREADPOOL_SIZE says
 * otherwise, one pool per process: every Worker of a process shares it). A large read that
 * holds a thread for its whole length starves the zips queued behind it.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'threadpool-clog',
  description:
    'per op one whole-file async read (--concurrency in flight), while one zlib.deflate after another competes for the libuv threadpool; --partition reads in chunks',
  reference:
    "Node PR 'fs: partition readFile to avoid threadpool exhaustion', benchmark/fs/readfile-clogging.js, 5 s, " +
    '16 MiB, 10 reads in flight: unpartitioned 2,759 reads and 703 zips, partitioned 623 reads and 61,745 zips (8 CPUs)',
  defaultFile: '16m',
  params: {
    concurrency: { description: 'reads in flight per worker/process', type: 'integer', default: 10 },
    partition: {
      description:
        "read in requests of this many bytes (the PR's Node: 8k; Node today: 512k); left out, one request per file",
      type: 'size',
    },
  },
  metrics: {
    readsPerSec: { description: 'whole-file reads completed per second', unit: 'ops/s', combine: 'sum' },
    zipsPerSec: { description: 'small deflates completed per second alongside', unit: 'ops/s', combine: 'sum' },
  },
  async run(ctx, iterations) {
    const { concurrency, partition } = ctx.params;
    const start = process.hrtime.bigint();
    let zips = 0;
    let reading = true;
    const zipper = (async () => {
      while (reading) {
        await deflateAsync(ZIP_INPUT);
        zips++;
      }
    })();

    await inFlight(concurrency, iterations, async () => {
      const fd = await openAsync(ctx.file, 'r');
      try {
        const { size } = await fstatAsync(fd);
        const buffer = Buffer.allocUnsafe(size);
        const read = await (partition ? readPartitioned(fd, buffer, partition) : readWhole(fd, buffer));
        if (read !== size) throw new Error(`read ${read} of the ${size} bytes of ${ctx.file}`);
      } finally {
        await closeAsync(fd);
      }
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    reading = false;
    await zipper;
    return { metrics: { readsPerSec: iterations / seconds, zipsPerSec: zips / seconds } };
  },
});
