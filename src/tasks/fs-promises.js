import { readFile, stat, writeFile } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inFlight } from './in-flight.js';

/**
 * The same fs call made through fs/promises and through its callback form, `concurrency` in
 * flight each way. Every promise-path request used to allocate two stat arrays it rarely
 * needs; the callback path never did. The ratio shows whether a Node has that fixed (--node).
 * @typedef {import('./index.js').TaskContext} TaskContext
 * @type {Record<string, { promise: (ctx: TaskContext, lane: number) => Promise<unknown>,
 *   callback: (ctx: TaskContext, lane: number, done: (error: Error | null) => void) => void }>}
 */
const OPS = {
  readFile: { promise: (ctx) => fsp.readFile(ctx.file), callback: (ctx, _lane, done) => readFile(ctx.file, done) },
  writeFile: {
    promise: (ctx, lane) => fsp.writeFile(ctx.state.targets[lane], ctx.state.data),
    callback: (ctx, lane, done) => writeFile(ctx.state.targets[lane], ctx.state.data, done),
  },
  stat: { promise: (ctx) => fsp.stat(ctx.file), callback: (ctx, _lane, done) => stat(ctx.file, done) },
};

/**
 * Calls per second with `concurrency` in flight.
 * @param {TaskContext} ctx
 * @param {number} iterations
 * @param {(ctx: TaskContext, lane: number) => Promise<unknown>} start
 */
async function rate(ctx, iterations, start) {
  const began = process.hrtime.bigint();
  await inFlight(ctx.params.concurrency, iterations, (lane) => start(ctx, lane));
  return (iterations * 1e9) / Number(process.hrtime.bigint() - began);
}

/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'fs-promises',
  description:
    'per op one fs/promises call and one of its callback form (--param op=readFile|writeFile|stat), --concurrency in flight; reports both rates and their ratio',
  reference:
    "nodejs/node#63886 'fs: allocate FSReqPromise stat arrays lazily' (open in 2026): 64 in flight on tmpfs, " +
    'promises faster after the fix by writeFile 1 KiB +53%, stat +26%, readFile 1 KiB +22%, callbacks unchanged',
  defaultFile: '1k',
  params: {
    op: {
      description: "the fs call; writeFile writes the file's bytes to a temporary file per lane",
      type: 'string',
      default: 'readFile',
      choices: Object.keys(OPS),
    },
    concurrency: {
      description: 'calls in flight per worker/process (the PR measured 1, 10, 64)',
      type: 'integer',
      default: 10,
    },
  },
  metrics: {
    promisesPerSec: { description: 'fs/promises calls per second', unit: 'ops/s', combine: 'sum' },
    callbacksPerSec: { description: 'callback-form calls per second', unit: 'ops/s', combine: 'sum' },
    promisesToCallbacks: {
      description: 'promises / callbacks rate (1 = no promise overhead)',
      unit: 'ratio',
      combine: 'mean',
    },
  },
  async setup(ctx) {
    if (ctx.params.op !== 'writeFile') return;
    ctx.state.data = await fsp.readFile(ctx.file);
    const dir = await fsp.mkdtemp(join(tmpdir(), 'mmapbench-fs-promises-'));
    ctx.state.dir = dir;
    ctx.state.targets = Array.from({ length: ctx.params.concurrency }, (_, i) => join(dir, `lane-${i}`));
  },
  async run(ctx, iterations) {
    const op = OPS[ctx.params.op];
    const promises = () => rate(ctx, iterations, (c, lane) => op.promise(c, lane));
    const callbacks = () =>
      rate(
        ctx,
        iterations,
        (c, lane) =>
          /** @type {Promise<void>} */ (
            new Promise((resolve, reject) => op.callback(c, lane, (error) => (error ? reject(error) : resolve())))
          ),
      );
    // alternate which goes first, call by call, so drift within a cell hits both
    ctx.state.flip = !ctx.state.flip;
    let promisesPerSec;
    let callbacksPerSec;
    if (ctx.state.flip) {
      promisesPerSec = await promises();
      callbacksPerSec = await callbacks();
    } else {
      callbacksPerSec = await callbacks();
      promisesPerSec = await promises();
    }
    return { metrics: { promisesPerSec, callbacksPerSec, promisesToCallbacks: promisesPerSec / callbacksPerSec } };
  },
  async teardown(ctx) {
    if (ctx.state.dir) await fsp.rm(ctx.state.dir, { recursive: true, force: true });
  },
});
