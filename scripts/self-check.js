#!/usr/bin/env node
// npm run bench:self: every figure mmapbench promises, set beside a small script of the same
// work run in the same minutes, and the CLI's own speed. A benchmark, not a test: it prints one
// table (the figure, the script's, the target, whether it holds) and always exits 0. The scripts
// use nothing of mmapbench's: each is a fresh Node process started here with a role (below), in
// the environment the cells get (the CLI's, less NODE_EXTRA_CA_CERTS).
//   node scripts/self-check.js [--only startup,memory,kept,main,loop,fresh,help,json,advise,fault,pool,judge]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const MiB = 2 ** 20;
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (/** @type {number[]} */ xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const mean = (/** @type {number[]} */ xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
/** A seeded draw in [0, 1) (mulberry32): a sitting's table reads the same when printed again. */
const seeded =
  (seed = 0x9e3779b9) =>
  () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
/** @type {typeof import('jstat').default} loaded by main() alone */
let jstat;
/** @type {typeof import('../src/document/points-of.js').pointView} loaded by main() alone */
let pointView;

/**
 * What a script shows against itself at two sample sizes, as an A/A of it would: the 95%
 * half-width of the difference between its figure over `a` of its units and over `b` (units:
 * whole apps, runs or pairs, each from a fresh tree). For a mean or median of numbers, from
 * their standard deviation (Student's t on n − 1; a median's spread taken as a mean's × 1.25, as
 * for normal data): a bootstrap of a few runs' median is too lumpy to say it. Otherwise (a p99
 * of the requests of the apps pooled), drawn again: each figure over that many units drawn from
 * the script's, 2,000 times, the 95th percentile of the two figures' difference, widened by
 * √(n / (n − 1)) as a bootstrap's spread falls short by that.
 * @template U
 * @param {U[]} units
 * @param {(units: U[]) => number} of
 * @param {number} a
 * @param {number} b
 */
const sameSizes = (units, of, a, b) => {
  const n = units.length;
  if (n < 2) return NaN;
  if ((of === mean || of === median) && units.every((unit) => typeof unit === 'number')) {
    const values = /** @type {number[]} */ (units);
    const sd = Math.sqrt(values.reduce((sum, x) => sum + (x - mean(values)) ** 2, 0) / (n - 1));
    return jstat.studentt.inv(0.975, n - 1) * sd * Math.sqrt(1 / a + 1 / b) * (of === median ? 1.2533 : 1);
  }
  const random = seeded();
  const draw = (/** @type {number} */ size) => of(Array.from({ length: size }, () => units[Math.floor(random() * n)]));
  const differences = Array.from({ length: 2000 }, () => Math.abs(draw(a) - draw(b))).sort((x, y) => x - y);
  return differences[1899] * Math.sqrt(n / (n - 1));
};
const pssAnon = (/** @type {number} */ pid) =>
  Number(/^Pss_Anon:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]) * 1024;
const rssAnon = () => Number(/^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
/** glibc's main arena: the `[heap]` mapping's anonymous memory (0 without one) */
const mainHeap = () => {
  const smaps = readFileSync('/proc/self/smaps', 'utf8');
  const at = smaps.indexOf(' [heap]\n');
  return at < 0 ? 0 : Number(/^Anonymous:\s+(\d+) kB$/m.exec(smaps.slice(at))?.[1]) * 1024;
};

// ---- the scripts: what a worker does, and the app that starts them ----

/** What one worker (thread or child) does, by role; it says `done` when its work is over. */
const WORK = {
  /** import the default task and run its setup, as an app's worker would */
  async startup(/** @type {any} */ job) {
    const { default: task } = await import(job.task);
    await task.setup?.({ file: job.file, params: {}, state: {} });
  },
  /** readFileSync until the time is up */
  read(/** @type {any} */ job) {
    while (Date.now() < job.until) for (let i = 0; i < 100; i++) readFileSync(job.file);
  },
};

/**
 * The memory role's worker, a file of its own written to the sitting's folder: reuse-buffer's
 * reads into one buffer, `ops` times, then `done`, holding still until ended; node:fs alone (a
 * thread imports node:worker_threads to answer).
 */
const REUSE_WORKER = `import { closeSync, openSync, readSync } from 'node:fs';
const child = process.argv[2] === '--worker';
const job = child ? JSON.parse(process.argv[3]) : (await import('node:worker_threads')).workerData;
const buffer = Buffer.allocUnsafe(64 * 1024);
for (let i = 0; i < job.ops; i++) {
  const fd = openSync(job.file, 'r');
  readSync(fd, buffer, 0, buffer.length, null);
  closeSync(fd);
}
if (child) {
  process.on('disconnect', () => process.exit(0));
  process.send('done');
} else (await import('node:worker_threads')).parentPort.postMessage('done');
setInterval(() => {}, 1 << 30);
`;

/** A worker: do the work, say so, and stay until ended (as a pool's idle worker), unless told to exit. */
async function worker(/** @type {any} */ job) {
  // a child whose app has gone goes too
  if (isMainThread) process.on('disconnect', () => process.exit(0));
  await WORK[/** @type {keyof typeof WORK} */ (job.work)](job);
  if (job.exit) process.exit(0);
  if (isMainThread) process.send?.('done');
  else parentPort?.postMessage('done');
  setInterval(() => {}, 1 << 30);
}

/**
 * Starts K workers of `mode` on `job`; resolves once each has said `done`. Each loads this file,
 * or `script` (a child gets `--worker` and the job; a thread, the job as its workerData).
 */
function startWorkers(/** @type {string} */ mode, /** @type {number} */ k, /** @type {any} */ job, script = me) {
  const workers = Array.from({ length: k }, () =>
    mode === 'workers'
      ? new Worker(script, { workerData: job })
      : fork(script, ['--worker', JSON.stringify(job)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
  );
  const done = Promise.all(workers.map((one) => new Promise((resolve) => one.once('message', resolve))));
  return { workers, done };
}
const end = (/** @type {any[]} */ workers) =>
  Promise.all(
    workers.map((one) => {
      const exited = new Promise((resolve) => one.once('exit', resolve));
      if ('terminate' in one) one.terminate();
      else one.kill();
      return exited;
    }),
  );

/** The apps, by role: each prints its figures as JSON. */
const APPS = {
  /**
   * ms from the first request for a worker to the last set up, by an app already running (its
   * own start over, as the tool's parent has finished loading before its first request)
   */
  async startup(/** @type {any} */ o) {
    await sleep(200);
    const from = performance.now();
    const { workers, done } = startWorkers(o.mode, o.k, { work: 'startup', task: o.task, file: o.file });
    await done;
    const ms = performance.now() - from;
    await end(workers);
    return ms;
  },
  /**
   * what each added worker holds, reuse-buffer, all holding still: (tree − before) / K. Its
   * workers load REUSE_WORKER (node:fs alone), not this file: what a worker loads is held in it
   * (this file's imports, node:child_process, node:util and node:worker_threads among them, held
   * 0.2-0.4 MiB more a worker, 2026-11-29)
   */
  async memory(/** @type {any} */ o) {
    const before = pssAnon(process.pid);
    const { workers, done } = startWorkers(o.mode, o.k, { file: o.file, ops: o.ops }, o.worker);
    await done;
    const tree = workers.reduce((sum, one) => sum + ('pid' in one ? pssAnon(one.pid) : 0), pssAnon(process.pid));
    await end(workers);
    return (tree - before) / o.k;
  },
  /**
   * what the app keeps once its K workers, which read a file for `seconds`, have ended: its
   * anonymous memory's growth less its main malloc heap's (`[heap]`), where its own requests'
   * Buffers are malloc'd; with `serve`, it serves the main-thread load's requests, as the tool's
   * app does, from `serve.warmMs` before its first reading (a running app: its V8 heap grown to
   * its load) until its workers are done
   */
  async kept(/** @type {any} */ o) {
    const gc = /** @type {() => void} */ (globalThis.gc);
    let index = 0;
    const serving = o.serve
      ? setInterval(() => {
          const body = Buffer.allocUnsafe(o.serve.size).fill(index & 0xff);
          JSON.parse(JSON.stringify({ id: index++, user: 'u', items: [1, 2, 3], bytes: body.length }));
        }, o.serve.every)
      : null;
    if (o.serve) await sleep(o.serve.warmMs);
    gc();
    const before = rssAnon() - mainHeap();
    const { workers, done } = startWorkers(o.mode, o.k, {
      work: 'read',
      file: o.file,
      until: Date.now() + o.seconds * 1000,
    });
    await done;
    if (serving) clearInterval(serving);
    await end(workers);
    await sleep(o.settleMs);
    gc();
    return (rssAnon() - mainHeap() - before) / o.k;
  },
  /**
   * The app's requests (µs) and its timer's lags (ms), alone or beside K workers that read a file
   * from its start: read from `skip` ms after they started, for `seconds`.
   */
  async main(/** @type {any} */ o) {
    const until = Date.now() + o.skip + o.seconds * 1000 + 100;
    const workers =
      o.mode === 'alone' ? [] : startWorkers(o.mode, o.k, { work: 'read', file: o.file, until, exit: true }).workers;
    const ended = workers.map((one) => new Promise((resolve) => one.once('exit', resolve)));
    /** @type {number[]} */
    const times = [];
    /** @type {number[]} */
    const lags = [];
    let index = 0;
    let measuring = false;
    /** @type {number | null} */
    let last = null;
    const timer = setInterval(() => {
      const from = performance.now();
      // how much later than its interval after its last call the timer called
      if (measuring && last !== null) lags.push(Math.max(0, from - last - o.every));
      last = from;
      const body = Buffer.allocUnsafe(o.size).fill(index & 0xff);
      const reply = JSON.parse(JSON.stringify({ id: index++, user: 'u', items: [1, 2, 3], bytes: body.length }));
      if (reply.bytes !== o.size) throw new Error('lost');
      if (measuring) times.push((performance.now() - from) * 1000);
    }, o.every);
    await sleep(o.skip);
    measuring = true;
    last = null;
    await sleep(o.seconds * 1000);
    clearInterval(timer);
    for (const one of workers) 'terminate' in one ? one.terminate() : one.kill();
    await Promise.all(ended);
    return { times, lags };
  },
  /**
   * ops/s through a tinypool of K workers in `mode`'s runtime, as an app runs it: each pool task
   * `batch` readFileSyncs in the worker (the pool worker module `o.module`), K in flight, `warmup`
   * tasks first, then `tasks` timed from the first submitted to the last answered
   */
  async pool(/** @type {any} */ o) {
    const { default: Tinypool } = await import('tinypool');
    const pool = new Tinypool({
      filename: o.module,
      runtime: o.mode === 'workers' ? 'worker_threads' : 'child_process',
      minThreads: o.k,
      maxThreads: o.k,
      env: /** @type {Record<string, string>} */ (process.env),
    });
    const drain = async (/** @type {number} */ tasks) => {
      let submitted = 0;
      const lane = async () => {
        while (submitted++ < tasks) await pool.run({ file: o.file, ops: o.batch });
      };
      await Promise.all(Array.from({ length: o.k }, lane));
    };
    await drain(o.warmup);
    const from = process.hrtime.bigint();
    await drain(o.tasks);
    const rate = (o.tasks * o.batch * 1e9) / Number(process.hrtime.bigint() - from);
    await pool.destroy();
    return rate;
  },
  /** ops/s of a bare readFileSync loop in one thread or one process: the harness's k=1 cell's work */
  async bare(/** @type {any} */ o) {
    const loop = () => {
      for (let i = 0; i < o.warmup; i++) readFileSync(o.file);
      const from = process.hrtime.bigint();
      for (let i = 0; i < o.iterations; i++) readFileSync(o.file);
      return (o.iterations * 1e9) / Number(process.hrtime.bigint() - from);
    };
    if (o.mode === 'procs') return loop();
    const source = `const { readFileSync } = require('node:fs'); const { parentPort, workerData: o } = require('node:worker_threads');
      for (let i = 0; i < o.warmup; i++) readFileSync(o.file);
      const from = process.hrtime.bigint();
      for (let i = 0; i < o.iterations; i++) readFileSync(o.file);
      parentPort.postMessage((o.iterations * 1e9) / Number(process.hrtime.bigint() - from));`;
    const thread = new Worker(source, { eval: true, workerData: o });
    return new Promise((resolve) => thread.once('message', resolve));
  },
};

if (process.argv[2] === '--worker' || !isMainThread) {
  await worker(isMainThread ? JSON.parse(process.argv[3]) : workerData);
} else if (process.argv[2] === '--app') {
  const [, , , role, options] = process.argv;
  const figure = await APPS[/** @type {keyof typeof APPS} */ (role)](JSON.parse(options));
  process.stdout.write(JSON.stringify(figure));
  process.exit(0);
} else {
  await main();
}

// ---- the sitting ----

async function main() {
  // What the checker alone uses is loaded here, never at the top: this file is also every
  // script's worker (a thread loads it whole), whose start-up and memory the rows set beside the
  // tool's (jstat there, loaded by each thread, doubled a script's start-up to 150 ms)
  ({ default: jstat } = await import('jstat'));
  // and how a compare's document is read (its one point beside the run's fields)
  ({ pointView } = await import('../src/document/points-of.js'));
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const only = values.only?.split(',');
  const wants = (/** @type {string} */ name) => !only || only.includes(name);
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.MMAPBENCH_RESULTS;
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-self-check-'));
  const file = join(dir, 'med');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  const task = pathToFileURL(fileURLToPath(new URL('../src/tasks/readfilesync.js', import.meta.url))).href;

  /** One script's app in a fresh process. */
  const app = (
    /** @type {string} */ role,
    /** @type {object} */ options,
    /** @type {string[]} */ flags = [],
    /** @type {Record<string, string>} */ more = {},
  ) => {
    const run = spawnSync(process.execPath, [...flags, me, '--app', role, JSON.stringify(options)], {
      encoding: 'utf8',
      env: { ...env, ...more },
    });
    if (run.status !== 0) throw new Error(`the ${role} script failed: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };
  /** mmapbench itself, as a user runs it; its document, and how long it took. */
  const mmapbench = (/** @type {string[]} */ args, /** @type {Record<string, string>} */ more = {}) => {
    const from = performance.now();
    const run = spawnSync(process.execPath, [bin, ...args, '--json', '--no-save'], {
      encoding: 'utf8',
      env: { ...env, ...more },
      maxBuffer: 1 << 28,
    });
    const seconds = (performance.now() - from) / 1000;
    if (run.status !== 0 && run.status !== 6) throw new Error(`mmapbench ${args.join(' ')} failed: ${run.stderr}`);
    const document = JSON.parse(run.stdout);
    // a compare's, workers' or procs' one point beside the run's fields, as its readers take it
    const read = ['compare', 'workers', 'procs'].includes(document.command) ? pointView(document) : document;
    return { document: read, seconds, stderr: run.stderr };
  };
  const say = (/** @type {string} */ text) => process.stderr.write(`self-check: ${text}\n`);

  /** @type {Array<{ figure: string, tool: string, script: string, difference: string, judged: string, holds: boolean | null }>} */
  const rows = [];
  /**
   * A figure beside its script's, judged by the script's own spread this sitting: the row holds
   * when the tool's difference from the script is within what the script shows against itself
   * at the same sample sizes (sameSizes: its units drawn again, as many as the tool's figure
   * came from against as many as the script ran). `near`: an absolute difference that holds
   * whatever its share, for a figure about 0 (what a child leaves), where a share means nothing.
   * @template U
   * @param {string} figure
   * @param {number} tool  the tool's figure
   * @param {{ units: U[], of: (units: U[]) => number, toolN: number }} script  what the script
   *   ran (whole apps, runs or pairs), its figure from them, and how many units the tool's had
   * @param {(x: number) => string} show
   * @param {{ near?: number, extra?: string, toolExtra?: string }} [more]
   */
  const beside = (figure, tool, { units, of, toolN }, show, { near = 0, extra = '', toolExtra = '' } = {}) => {
    const script = of(units);
    const spread = sameSizes(units, of, Math.max(1, Math.round(toolN)), units.length);
    const allowed = Math.max(spread, near);
    const pct = (/** @type {number} */ x, sign = true) =>
      `${sign && x >= 0 ? '+' : sign ? '−' : ''}${Math.abs((x / script) * 100).toFixed(0)}%`;
    rows.push({
      figure,
      tool: `${show(tool)}${toolExtra}`,
      script: `${show(script)}${extra}`,
      difference: Number.isFinite(tool) ? pct(tool - script) : 'none',
      judged: `script against itself ±${pct(spread, false)} (${toolN} vs ${units.length})${near && near > spread ? `, or ${show(near)}` : ''}`,
      holds: Number.isFinite(tool) && Number.isFinite(script) ? Math.abs(tool - script) <= allowed : null,
    });
  };
  /** A promise with a target of its own (no script does the same work): the row's target. */
  const promise = (
    /** @type {string} */ figure,
    /** @type {string} */ tool,
    /** @type {string} */ script,
    /** @type {string} */ target,
    /** @type {boolean} */ holds,
  ) => rows.push({ figure, tool, script, difference: '', judged: `target ${target}`, holds });

  const ms = (/** @type {number} */ x) => `${x.toFixed(1)} ms`;
  const ms2 = (/** @type {number} */ x) => `${x.toFixed(2)} ms`;
  const mib = (/** @type {number} */ x) => `${(x / MiB).toFixed(1)} MiB`;
  const us = (/** @type {number} */ x) => `${x.toFixed(0)} µs`;
  const modes = /** @type {const} */ (['workers', 'procs']);
  const label = { workers: 'threads', procs: 'processes' };
  const one = { workers: 'thread', procs: 'process' };

  if (wants('help')) {
    say('--help against node -e 0, 9 pairs');
    const time = (/** @type {string[]} */ args) => {
      const from = performance.now();
      spawnSync(process.execPath, args, { env, stdio: 'ignore' });
      return performance.now() - from;
    };
    const help = [];
    const bare = [];
    for (let i = 0; i < 9; i++) {
      bare.push(time(['-e', '0']));
      help.push(time([bin, '--help']));
    }
    const ratio = median(help) / median(bare);
    promise(
      '`mmapbench --help` / `node -e 0`',
      `${ratio.toFixed(1)}× (${median(help).toFixed(0)} ms)`,
      `node -e 0: ${median(bare).toFixed(0)} ms`,
      '≤ 3×',
      ratio <= 3,
    );
  }

  if (wants('startup')) {
    say('start-up, k=2: 8 apps a mode, then a default compare of 15 s');
    const byHand = { workers: /** @type {number[]} */ ([]), procs: /** @type {number[]} */ ([]) };
    for (let run = 0; run < 8; run++)
      for (const mode of run % 2 ? ['procs', 'workers'] : ['workers', 'procs'])
        byHand[/** @type {'workers'|'procs'} */ (mode)].push(app('startup', { mode, k: 2, task, file }));
    const { document } = mmapbench(['compare', '-k', '2', '--max-time', '15']);
    for (const mode of modes)
      beside(
        `start-up, K=2 ${label[mode]} (request to all set up)`,
        document[mode].readyMs.median,
        { units: byHand[mode], of: median, toolN: document[mode].readyMs.samples.length },
        ms,
      );
  }

  if (wants('memory')) {
    say(
      "memory per added worker, reuse-buffer, k=2: compare --rounds 6 (its figure the plain app's, beside the cells in rounds 2, 4 and 6; its cells' from the 3 rounds that time no op shown apart), then 6 apps a mode of its workers' ops",
    );
    const args = ['compare', '-k', '2', '--task', 'reuse-buffer', '--file', file, '--rounds', '6', '--duration', '0.5'];
    const { document } = mmapbench([...args, '--main', 'off']);
    // The same work: as many reads a worker as the tool's ran, its warmup's and its window's (the
    // median over its cells). What a worker holds grows with how long it ran, as V8 compiles
    // more: a plain child read 9.3 MiB after 20,000 reads and 10.4 after 200,000
    const ops = Math.round(
      median(
        document.rounds.flatMap((/** @type {any} */ round) =>
          round.complete
            ? modes.flatMap((mode) => round[mode].workers.map((/** @type {any} */ w) => w.ops + (w.warmup?.ops ?? 0)))
            : [],
        ),
      ),
    );
    const reuseWorker = join(dir, 'reuse-worker.mjs');
    writeFileSync(reuseWorker, REUSE_WORKER);
    const byHand = { workers: /** @type {number[]} */ ([]), procs: /** @type {number[]} */ ([]) };
    for (let run = 0; run < 6; run++)
      for (const mode of modes) byHand[mode].push(app('memory', { mode, k: 2, file, ops, worker: reuseWorker }));
    // the figure the answer shows: the plain app's beside the cells, where the run had plain
    // trees; the cells' (mmapbench's runner in each worker), and what those that timed ops
    // held, shown apart
    const { addedMiB } = await import('../src/points/measures.js');
    for (const mode of modes) {
      const timed = document.rounds.flatMap((/** @type {any} */ round) =>
        round[mode]?.memory?.timedOps ? [addedMiB(round[mode])] : [],
      );
      const shown = document[mode].plain?.addedMemory ?? document[mode].addedMemory;
      const cells = document[mode].plain?.addedMemory ? `; cells ${mib(document[mode].addedMemory.median * MiB)}` : '';
      beside(
        `memory per added worker, ${label[mode]} (reuse-buffer)`,
        shown.median * MiB,
        { units: byHand[mode], of: median, toolN: shown.samples.length },
        mib,
        {
          toolExtra: `${document[mode].plain?.addedMemory ? ' (plain app)' : ''}${cells}${
            timed.length ? `; ${mib(median(timed) * MiB)} in the rounds timing ops` : ''
          }`,
        },
      );
    }
  }

  // the rule by which the tool reads full speed, applied to the bare script's chunks alike
  const { fullSpeedAt } = await import('../src/stats/ramp.js');

  if (wants('kept')) {
    // What a thread leaves falls on a few levels (one glibc arena grown or two), and how often
    // it lands on each moves from minute to minute (a script's mean, 20 apps: 19.1 MiB at one
    // minute, 26.3 at another): so one round of the tool, then the script's apps for the same
    // work time, in turn, 16 times (each tree lands on one level: the more trees, the steadier
    // the mean); the means, the figure the table shows. A default compare's window.
    // The app serves its load meanwhile, as a default compare's does, from 2 s before (a running
    // app), and what its own main heap grew by is taken out of what it kept, as the tool takes it
    // out.
    say('kept after the end, k=2, the app on: 16 times in turn, a compare --duration 0.1 --rounds 1 and an app a mode');
    const tool = { workers: /** @type {number[]} */ ([]), procs: /** @type {number[]} */ ([]) };
    const byHand = { workers: /** @type {number[]} */ ([]), procs: /** @type {number[]} */ ([]) };
    const worked = { workers: /** @type {number[]} */ ([]), procs: /** @type {number[]} */ ([]) };
    for (let run = 0; run < 16; run++) {
      const { document } = mmapbench(['compare', '-k', '2', '--file', file, '--duration', '0.1', '--rounds', '1']);
      const { everyMs: every, size } = document.config.main;
      for (const mode of modes) {
        // the same work time as the cell's: its warm-up and window
        const phases = document.phases.modes[mode];
        const seconds = (phases.warmupNs + phases.windowNs) / 1e9;
        tool[mode].push(document[mode].keptMemory.mean * MiB);
        worked[mode].push(seconds);
        byHand[mode].push(
          app(
            'kept',
            { mode, k: 2, file, seconds, settleMs: document.config.end.settleMs, serve: { every, size, warmMs: 2000 } },
            ['--expose-gc'],
          ),
        );
      }
    }
    // Each mean moves with where its trees' arenas (a thread's) or its app's heap top (a child's
    // parent, whose app has served its load) happened to land: the script's 16 apps against
    // themselves say how far by chance. What a child leaves its parent is about 0, where a share
    // means nothing: within 0.5 MiB holds.
    for (const mode of modes)
      beside(
        `kept after the end, per ${one[mode]}, app on (${mean(worked[mode]).toFixed(1)} s of work)`,
        mean(tool[mode]),
        { units: byHand[mode], of: mean, toolN: tool[mode].length },
        mib,
        { near: 0.5 * MiB },
      );
  }

  if (wants('main')) {
    const p99 = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.ceil(0.99 * xs.length) - 1];
    for (const size of [64 * 1024, MiB]) {
      const text = size === MiB ? '1 MiB' : '64 KiB';
      say(
        `the app's main thread, k=1, ${text} requests: compare --max-time 20, then as many apps an arm as it has cells`,
      );
      const { document } = mmapbench([
        'compare',
        '-k',
        '1',
        '--file',
        file,
        '--request-size',
        String(size),
        '--max-time',
        '20',
      ]);
      // Each script's app is read as the cells read it, pooled over as many fresh trees as the
      // tool pooled (a p99 of a few hundred requests moves with how many trees it spans): alone
      // after twice the cells' alone stretch of its load, for one stretch, as many apps as cells
      // that read the app alone; beside its workers from as long after their start as a cell's
      // window begins (their start-up and warm-up) for as long as a window lasts, an app a round
      /** @type {Record<string, { times: number[], lags: number[], apps: Array<{ times: number[], lags: number[] }> }>} */
      const byHand = {};
      for (const mode of /** @type {const} */ (['alone', 'workers', 'procs'])) {
        const phases = mode === 'alone' ? null : document.phases.modes[mode];
        const { aloneMs } = document.config.main;
        const skip = phases
          ? (phases.threadsNs + phases.setupNs + phases.warmupNs + phases.barrierNs) / 1e6
          : 2 * aloneMs;
        const seconds = phases ? phases.windowNs / 1e9 : aloneMs / 1000;
        byHand[mode] = { times: [], lags: [], apps: [] };
        const rounds = document.rounds.filter((/** @type {any} */ round) => round.complete && !round.pilot).length;
        const apps = mode === 'alone' ? document.appAlone.cells : rounds;
        for (let run = 0; run < apps; run++) {
          const read = app('main', { mode, k: 1, file, size, every: 2, skip, seconds });
          byHand[mode].times.push(...read.times);
          byHand[mode].lags.push(...read.lags);
          byHand[mode].apps.push(read);
        }
      }
      // A pooled p99 of a few hundred requests moves with which trees it pools: the script's
      // apps against themselves, whole apps drawn again as many as the tool pooled cells, say how
      // far by chance
      const pooled =
        (/** @type {'times'|'lags'} */ of) => (/** @type {Array<{ times: number[], lags: number[] }>} */ apps) =>
          p99(apps.flatMap((one) => one[of]));
      const counted = document.rounds.filter((/** @type {any} */ round) => round.complete && !round.pilot).length;
      const scriptOf = (/** @type {'alone'|'workers'|'procs'} */ mode, /** @type {'times'|'lags'} */ of) => ({
        units: byHand[mode].apps,
        of: pooled(of),
        toolN: mode === 'alone' ? document.appAlone.cells : counted,
      });
      // the 1 MiB requests' p99 falls on one side of 1 ms or the other (a request that waits for a
      // young-generation collection), so their share over 1 ms is shown beside it
      const share = (/** @type {number} */ n, /** @type {number} */ of) =>
        `${((100 * n) / Math.max(of, 1)).toFixed(0)}% > 1 ms`;
      const over = (/** @type {number[]} */ times) =>
        size === MiB ? ` (${share(times.filter((t) => t > 1000).length, times.length)})` : '';
      // the tool's: its complete cells' request histograms ([lower bound ns, count]) pooled, alone
      // where a cell read the app alone
      const toolOver = (/** @type {'alone'|'workers'|'procs'} */ mode) => {
        if (size !== MiB) return '';
        /** @type {Array<[number, number]>} */
        const pairs = document.rounds
          .filter((/** @type {any} */ round) => round.complete && !round.pilot)
          .flatMap((/** @type {any} */ round) =>
            mode === 'alone'
              ? modes.flatMap((arm) => round[arm]?.main?.alone?.histogram ?? [])
              : (round[mode]?.main?.during?.histogram ?? []),
          );
        const all = pairs.reduce((sum, [, count]) => sum + count, 0);
        return ` (${share(
          pairs.filter(([at]) => at >= 1e6).reduce((sum, [, count]) => sum + count, 0),
          all,
        )})`;
      };
      beside(`app request p99 alone, ${text}`, document.appAlone.p99Ns / 1000, scriptOf('alone', 'times'), us, {
        extra: over(byHand.alone.times),
        toolExtra: toolOver('alone'),
      });
      for (const mode of modes)
        beside(
          `app request p99 beside 1 ${one[mode]}, ${text}`,
          document[mode].mainRequestP99Us.pooled,
          scriptOf(mode, 'times'),
          us,
          { extra: over(byHand[mode].times), toolExtra: toolOver(mode) },
        );
      if (size === MiB) continue;
      // a lag of a tenth of a millisecond either way holds whatever its share (the timer's own
      // resolution at a 2 ms interval)
      beside('app loop lag p99 alone', document.appAlone.lagP99Ns / 1e6, scriptOf('alone', 'lags'), ms2, { near: 0.1 });
      for (const mode of modes)
        beside(`app loop lag p99 beside 1 ${one[mode]}`, document[mode].lagP99Ms.pooled, scriptOf(mode, 'lags'), ms2, {
          near: 0.1,
        });
      // for reference: the same app beside workers a second old, over 2 s (not a target: a cell's
      // workers are as young as its window)
      for (const mode of modes) {
        const old = app('main', { mode, k: 1, file, size, every: 2, skip: 1000, seconds: 2 });
        rows.push({
          figure: `app loop lag p99 beside 1 ${one[mode]} a second old`,
          tool: '',
          script: ms2(p99(old.lags)),
          difference: '',
          judged: 'for reference',
          holds: null,
        });
      }
    }
  }

  if (wants('loop')) {
    say('throughput at k=1 against a bare loop: 7 each a mode, in turn');
    const iterations = 30000;
    const warmup = 7500;
    for (const mode of modes) {
      // one after the other, seven times: the machine's speed moves from minute to minute
      const bare = [];
      const tool = [];
      for (let run = 0; run < 7; run++) {
        bare.push(app('bare', { mode, file, iterations, warmup }));
        const args = ['-k', '1', '--file', file, '--iterations', String(iterations), '--warmup', String(warmup)];
        tool.push(mmapbench([mode, ...args, '--main', 'off']).document[mode].throughput.median);
      }
      beside(
        `throughput, k=1 ${one[mode]} (readfilesync)`,
        median(tool),
        { units: bare, of: median, toolN: tool.length },
        (x) => `${(x / 1000).toFixed(1)}k ops/s`,
      );
    }
  }

  if (wants('fresh')) {
    say('fresh and warm at k=2: a default compare, and bare scripts (scripts/fresh-warm.js) 5 times a mode, in turn');
    const bareScript = fileURLToPath(new URL('./fresh-warm.js', import.meta.url));
    const bareRun = (/** @type {string} */ mode, /** @type {string[]} */ args) => {
      const run = spawnSync(process.execPath, [bareScript, '--mode', mode, '-k', '2', '--file', file, ...args], {
        encoding: 'utf8',
        env,
      });
      if (run.status !== 0) throw new Error(`scripts/fresh-warm.js failed: ${run.stderr}`);
      return JSON.parse(run.stdout);
    };
    // the bare scripts run no app beside their workers: nor does the tool here
    const { document } = mmapbench(['compare', '-k', '2', '--file', file, '--max-time', '20', '--main', 'off']);
    /** @type {Record<string, number[]>} */
    const pairs = { fresh: [], warm: [] };
    /** @type {Record<'workers'|'procs', number[]>} */
    const toFull = { workers: [], procs: [] };
    for (let run = 0; run < 5; run++) {
      const [fw, fp] = modes.map((mode) => bareRun(mode, ['--ops', '2000']).throughput);
      pairs.fresh.push(fw / fp);
      const [ww, wp] = modes.map((mode) => bareRun(mode, ['--ops', '8000', '--warm', '16000']).throughput);
      pairs.warm.push(ww / wp);
      // a fresh worker's chunks through 24,000 ops, read by the tool's rule against its rate once
      // warm, as the tool reads it against its window's: here the chunks after 16,000 ops, where the
      // warm pair above times its 8,000 (against the rate of its own first 8,000's last half, as
      // this row once was, a thread still drifting up reads 110 ms where the tool read 440)
      for (const mode of modes) {
        const { chunks, chunk } = bareRun(mode, ['--ops', '24000', '--chunk', '400']);
        for (let worker = 0; worker < 2; worker++) {
          const rates = chunks.map((/** @type {number[]} */ each) => each[worker]);
          /** @type {number[]} */
          const atUs = [];
          rates.reduce((at, rate) => (atUs.push(at + (chunk / rate) * 1e6), at + (chunk / rate) * 1e6), 0);
          toFull[mode].push(fullSpeedAt({ batch: chunk, atUs }, median(rates.slice(16000 / chunk))).ms);
        }
      }
    }
    const ratio = (/** @type {number} */ x) => x.toFixed(2);
    const first = document.measures?.firstThroughput;
    beside(
      'fresh w/p, k=2 (first 2,000 ops)',
      first?.geomean ?? NaN,
      { units: pairs.fresh, of: median, toolN: first?.n ?? 1 },
      ratio,
    );
    beside(
      'warm w/p, k=2 (throughput)',
      document.ratio.geomean,
      { units: pairs.warm, of: median, toolN: document.ratio.n },
      ratio,
    );
    // a worker at full speed from its first batches reads a few ms either way: within 20 ms holds
    for (const mode of modes)
      beside(
        `time to full speed, k=2 ${label[mode]}`,
        document[mode].toFullSpeedMs?.mean ?? NaN,
        { units: toFull[mode], of: median, toolN: document[mode].toFullSpeedMs?.samples.length ?? 1 },
        ms,
        { near: 20 },
      );
  }

  if (wants('json')) {
    say('compare --task json to ±5%: 3 runs');
    const seconds = [0, 1, 2].map(() => mmapbench(['compare', '--task', 'json', '--precision', '5%']).seconds);
    promise(
      'compare --task json until ±5%',
      `${median(seconds).toFixed(1)} s (${seconds.map((s) => s.toFixed(1)).join(', ')})`,
      '',
      '≤ 4 s',
      median(seconds) <= 4,
    );
  }

  if (wants('advise')) {
    say('advise -k 2 until it names its best');
    const { document, seconds } = mmapbench(['advise', '-k', '2']);
    const best = document.advice?.best ?? null;
    promise(
      'advise -k 2 names its best',
      `${seconds.toFixed(0)} s: ${best ?? 'nothing decided'}`,
      '',
      '≤ 40 s, reuse-buffer',
      seconds <= 40 && /reuse-buffer/.test(String(best)),
    );
  }
  if (wants('pool')) {
    // the pool's worker module of the script: the same reads, nothing of mmapbench's
    const module = join(dir, 'pool-worker.mjs');
    writeFileSync(
      module,
      "import { readFileSync } from 'node:fs';\nexport default ({ file, ops }) => { for (let i = 0; i < ops; i++) readFileSync(file); return ops; };\n",
    );
    const job = { k: 2, file, batch: 400, warmup: 50, tasks: 100 };
    // glibc's heap as it comes, then with a 64 MiB top pad: a child's heap lands in one of two
    // states, trimmed after each scavenge or not, by what it allocated before (docs/how-it-measures.md,
    // "Why fresh trees differ"); under the pad neither tree trims, so the second pair of rows sets
    // the harness's own cost through the pool apart from which state each tree drew
    for (const [heap, more] of /** @type {const} */ ([
      ['', {}],
      [', MALLOC_TOP_PAD_ 64 MiB', { MALLOC_TOP_PAD_: '67108864' }],
    ])) {
      say(`--pool tinypool, k=2${heap}: a compare of 8 rounds beside 8 apps a mode of tinypool by hand`);
      const { document } = mmapbench(
        [
          ...['compare', '-k', '2', '--pool', 'tinypool', '--batch', '400', '--rounds', '8'],
          ...['--iterations', String((job.tasks * job.batch) / 2), '--warmup', String((job.warmup * job.batch) / 2)],
          ...['--file', file, '--main', 'off'],
        ],
        more,
      );
      const byHand = { workers: /** @type {number[]} */ ([]), procs: /** @type {number[]} */ ([]) };
      for (let i = 0; i < 8; i++)
        for (const mode of modes)
          byHand[mode].push(app('pool', { ...job, mode, module: pathToFileURL(module).href }, [], more));
      const rate = (/** @type {number} */ x) => `${(x / 1000).toFixed(1)}k ops/s`;
      for (const mode of modes)
        beside(
          `throughput through tinypool, ${label[mode]}${heap}`,
          document[mode].throughput.median,
          { units: byHand[mode], of: median, toolN: document.rounds.length },
          rate,
        );
    }
  }

  if (wants('fault')) {
    say('--fault, each kind: compare --quick -k 2 beside scripts/fault-kinds.js');
    // the bare script: an app of its own with K workers, each kind in each mode
    const script = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('./fault-kinds.js', import.meta.url)), '--json'],
      {
        encoding: 'utf8',
        env,
      },
    )
      .stdout.split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text));
    const took = (/** @type {boolean} */ survived, /** @type {number} */ lost) =>
      survived ? `${lost} of 2` : `the app and ${lost} of 2`;
    for (const kind of ['throw', 'exit', 'abort', 'oom', 'native-oom']) {
      const bare = script.filter((row) => row.kind === kind);
      if (!bare.every((row) => row.tried)) {
        promise(`--fault ${kind}: what it takes down`, 'not tried here', 'not tried here', 'root', true);
        continue;
      }
      const { fault } = mmapbench(['compare', '--quick', '-k', '2', '--fault', kind]).document;
      const tool = modes.map((mode) => `${label[mode]} ${took(fault[mode].appSurvived, fault[mode].workersLost)}`);
      const byHand = modes.map((mode) => {
        const row = bare.find((found) => found.mode === one[mode]);
        return `${label[mode]} ${row ? took(row.survived, row.lost) : '?'}`;
      });
      promise(
        `--fault ${kind}: what it takes down`,
        tool.join('; '),
        byHand.join('; '),
        'the same',
        tool.join() === byHand.join(),
      );
    }
  }
  if (wants('judge')) {
    say(
      "heap states: scripts/heap-judge.js, 40 plain trees and 40 cells (20 compares of 2 rounds) a row, in turn; and the compares' own plain trees (one a compare)",
    );
    const judged = spawnSync(process.execPath, [fileURLToPath(new URL('./heap-judge.js', import.meta.url)), '--json'], {
      encoding: 'utf8',
      env,
    })
      .stdout.split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text));
    const share = (/** @type {{ slow: number, trees: number, ci95: number[] }} */ one) =>
      `${one.slow} of ${one.trees} slow (${one.ci95.map((x) => `${Math.round(x * 100)}%`).join('-')})`;
    for (const row of judged) {
      const of = `${row.via}, k=${row.k}, ${row.mode === 'thread' ? 'threads' : 'processes'}`;
      rows.push({
        figure: `slow trees, ${of}`,
        tool: share(row.mmapbench),
        script: share(row.plain),
        difference: '',
        judged: `Fisher's exact p = ${row.p.toFixed(3)}`,
        holds: row.holds,
      });
      // the plain trees each compare ran beside its cells, the share its answer reads as an app's
      if (row.answer)
        rows.push({
          figure: `slow trees an app draws, as the run reads them, ${of}`,
          tool: share(row.answer),
          script: share(row.plain),
          difference: '',
          judged: `Fisher's exact p = ${row.answerP.toFixed(3)}`,
          holds: row.answerHolds,
        });
    }
  }
  rmSync(dir, { recursive: true });

  const head = ['figure', 'mmapbench', 'script, same minutes', 'mmapbench − script', 'judged by', 'holds'];
  const cells = rows.map((row) => [
    row.figure,
    row.tool,
    row.script,
    row.difference,
    row.judged,
    row.holds === null ? '' : row.holds ? 'yes' : 'NO',
  ]);
  const widths = head.map((name, i) => Math.max(name.length, ...cells.map((cell) => cell[i].length)));
  const line = (/** @type {string[]} */ cell) => `| ${cell.map((text, i) => text.padEnd(widths[i])).join(' | ')} |`;
  process.stdout.write(
    [
      `mmapbench self-check, ${new Date().toISOString().slice(0, 16)} UTC, Node ${process.version}`,
      line(head),
      `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
      ...cells.map(line),
      '',
    ].join('\n'),
  );
}
