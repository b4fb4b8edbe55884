#!/usr/bin/env node
// Does `compare --task message` measure what a pool's round trips cost? By hand, without the
// harness: this process is the parent; it starts K Worker threads, or forks K children (with
// the serialization asked for), each of which sends the same message and waits for it to come
// back, --trips / 4 times to warm up and then, once all K are warm, --trips times; the parent's
// main thread sends each one straight back. Round trips per second of the K together, the median of --repeats fresh sets of
// workers per mode, alternating modes. Then a compare of the same message, and the two side by
// side.
//   node scripts/message-check.js [--shape object] [--size 100] [--serialization json] [-k 2] [--trips 3000] [--repeats 5] [--max-time 20 | --rounds N]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { execa } from 'execa';
import { median } from 'simple-statistics';
import { objectOf } from '../src/tasks/message.js';
import { parseSize } from '../src/words/spelling.js';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'object' },
    size: { type: 'string', default: '100' },
    serialization: { type: 'string', default: 'json' },
    k: { type: 'string', short: 'k', default: '2' },
    trips: { type: 'string', default: '3000' },
    repeats: { type: 'string', default: '5' },
    'max-time': { type: 'string', default: '20' },
    // a fixed number of compare rounds instead of the budget
    rounds: { type: 'string' },
    // one worker's side, in a child process
    child: { type: 'boolean', default: false },
  },
});
const self = fileURLToPath(import.meta.url);

/** @param {string} shape @param {number} size */
function payloadOf(shape, size) {
  if (shape === 'object') return objectOf(size);
  if (shape === 'json') return JSON.stringify(objectOf(size));
  if (shape === 'buffer') return Buffer.alloc(size, 7);
  throw new Error(`this script sends object, json or buffer, not ${shape}`);
}

/**
 * One worker's loop: warm up, tell the parent, wait for its word that all K are warm, then time
 * its round trips, so the K run side by side, as a cell's workers do. `send` sends; `listen`
 * calls back with each reply, or with 'go'.
 * @param {{ shape: string, size: number, trips: number }} job
 * @param {(value: unknown) => void} send
 * @param {(on: (message: unknown) => void) => void} listen
 * @param {() => void} warmed  tells the parent this worker is warm
 */
function loop(job, send, listen, warmed) {
  const payload = payloadOf(job.shape, job.size);
  const warm = Math.ceil(job.trips / 4);
  return new Promise((resolve) => {
    let done = 0;
    let start = 0n;
    listen((message) => {
      if (message === 'go') {
        start = process.hrtime.bigint();
        return send(payload);
      }
      done++;
      if (done === warm) return warmed();
      if (done === warm + job.trips) resolve({ ns: Number(process.hrtime.bigint() - start), start: String(start) });
      else send(payload);
    });
    send(payload);
  });
}

if (!isMainThread) {
  const port = /** @type {import('node:worker_threads').MessagePort} */ (workerData.port);
  const result = await loop(
    workerData.job,
    (value) => port.postMessage(value),
    (on) => {
      port.on('message', on);
      parentPort?.on('message', on);
    },
    () => parentPort?.postMessage('warm'),
  );
  parentPort?.postMessage(result);
  port.close();
  parentPort?.close();
} else if (values.child) {
  process.once('message', async (/** @type {any} */ job) => {
    const send = /** @type {NonNullable<typeof process.send>} */ (process.send).bind(process);
    const result = await loop(
      job,
      (value) => send({ echo: value }),
      (on) =>
        process.on('message', (/** @type {any} */ message) =>
          message === 'go' ? on('go') : message?.echo !== undefined && on(message.echo),
        ),
      () => send('warm'),
    );
    send({ result }, () => process.exit(0));
  });
} else {
  const k = Number(values.k);
  const job = { shape: values.shape, size: parseSize(values.size), trips: Number(values.trips) };
  /** The K together: round trips over the span from the first start to the last end. */
  const rate = (/** @type {Array<{ ns: number, start: string }>} */ results) => {
    const starts = results.map((r) => BigInt(r.start));
    const ends = results.map((r, i) => starts[i] + BigInt(r.ns));
    const first = starts.reduce((a, b) => (b < a ? b : a));
    const last = ends.reduce((a, b) => (b > a ? b : a));
    return (k * job.trips * 1e9) / Number(last - first);
  };
  // this process's CPU time from the release to the last result: what answering the children
  // took the parent (procs; a thread's parent shares its process with the threads)
  /** @type {number[]} */
  const parentUs = [];
  let released = process.cpuUsage();
  /** Tells every worker to go once all K are warm. @param {Array<(message: string) => void>} tell */
  const barrier = (tell) => {
    let warm = 0;
    return () => {
      if (++warm !== k) return;
      released = process.cpuUsage();
      tell.forEach((go) => go('go'));
    };
  };
  const threads = async () => {
    /** @type {Array<(message: string) => void>} */
    const tell = [];
    const warmed = barrier(tell);
    const results = await Promise.all(
      Array.from({ length: k }, () => {
        const { port1, port2 } = new MessageChannel();
        port1.on('message', (value) => port1.postMessage(value));
        const worker = new Worker(self, { workerData: { job, port: port2 }, transferList: [port2] });
        tell.push((message) => worker.postMessage(message));
        return new Promise((resolve, reject) =>
          worker
            .on('message', (message) => {
              if (message === 'warm') return warmed();
              port1.close();
              worker.terminate().then(() => resolve(message));
            })
            .once('error', reject),
        );
      }),
    );
    return rate(/** @type {any} */ (results));
  };
  const children = async () => {
    /** @type {Array<(message: string) => void>} */
    const tell = [];
    const warmed = barrier(tell);
    const results = await Promise.all(
      Array.from({ length: k }, () => {
        const child = fork(self, ['--child'], {
          serialization: /** @type {'json'|'advanced'} */ (values.serialization),
        });
        tell.push((message) => child.send(message));
        return new Promise((resolve, reject) => {
          child.on('message', (/** @type {any} */ message) => {
            if (message?.echo !== undefined) child.send(message);
            else if (message === 'warm') warmed();
            else if (message?.result) resolve(message.result);
          });
          child.once('error', reject);
          child.send(job);
        });
      }),
    );
    const used = process.cpuUsage(released);
    parentUs.push((used.user + used.system) / (k * job.trips));
    return rate(/** @type {any} */ (results));
  };
  /** @type {{ workers: number[], procs: number[] }} */
  const byHand = { workers: [], procs: [] };
  for (let i = 0; i < Number(values.repeats); i++) {
    /** @type {Array<'workers'|'procs'>} */
    const order = i % 2 ? ['procs', 'workers'] : ['workers', 'procs'];
    for (const mode of order) byHand[mode].push(await (mode === 'workers' ? threads() : children()));
  }
  const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
  const args = ['compare', '--task', 'message', '-k', String(k)];
  args.push(...(values.rounds ? ['--rounds', values.rounds] : ['--max-time', values['max-time']]));
  args.push('--shape', values.shape, '--size', values.size, '--serialization', values.serialization);
  const { stdout } = await execa(process.execPath, [bin, ...args, '--json', '--no-save']);
  // loaded here alone: this file is also the workers it times by hand
  const { pointView } = await import('../src/document/points-of.js');
  const document = pointView(JSON.parse(stdout));
  const fmt = (/** @type {number} */ n) => Math.round(n).toLocaleString('en-US');
  console.log(
    `message ${values.shape} of ${values.size} bytes, serialization ${values.serialization} (procs), k=${k}; by hand ${values.repeats} sets of workers a mode, ${values.trips} round trips each; node ${process.version}`,
  );
  for (const mode of /** @type {const} */ (['workers', 'procs'])) {
    const hand = median(byHand[mode]);
    const tool = document[mode].throughput;
    console.log(
      `  ${mode}: mmapbench ${fmt(tool.median)} round trips/s (${document.ratio.n} rounds), by hand ${fmt(hand)} (${byHand[mode].map(fmt).join(', ')}): ${(((tool.median - hand) / hand) * 100).toFixed(1)}%`,
    );
  }
  const parentLine = document.account?.lines.find((/** @type {any} */ line) => line.key === 'parentNs');
  if (parentLine?.modes.procs)
    console.log(
      `  the parent's CPU per round trip, procs: mmapbench ${(parentLine.modes.procs.mean / 1e3).toFixed(1)} µs (its main thread), by hand ${median(parentUs).toFixed(1)} µs (the whole process)`,
    );
  const { median: ratio, ci95 } = document.ratio;
  console.log(
    `  workers/procs: mmapbench ${ratio.toFixed(2)} (${ci95.map((/** @type {number} */ x) => x.toFixed(2)).join('-')}), by hand ${(median(byHand.workers) / median(byHand.procs)).toFixed(2)}`,
  );
}
