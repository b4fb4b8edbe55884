// Entry point of a pool cell's one process (compare --pool): an app's main process that builds a
// pool (tinypool, workerpool) of K workers in one of its runtimes, threads or child processes,
// as the app would, and has its work done through it. Its main thread submits the pool tasks
// (`batch` ops of the task each, K in flight) and serves the app's own load beside them, so the
// pool's dispatch, its queue and its messages are in what is measured. Each worker's ops are
// timed in the worker (work.js); a worker's window runs from its first timed op to its last, so
// the gaps between its pool tasks (the round trip, the queue) count against its rate.
import { BroadcastChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { poolBuilder } from './build.js';
import { accounting, serializeError, SLICES, usageBetween } from '../task-runner.js';
import { endCycles } from '../ending.js';
import { hostShell } from '../host-shell.js';
import { readCounters, windowAccount } from '../thread-counters.js';
import { cellAccount } from '../../stats/account.js';
import { combineMetrics } from '../../stats/cell-summary.js';
import { mergeHistograms } from '../../stats/histogram.js';
import { TOO_SHORT } from '../latency-sampler.js';
import { EXITING } from './exiting.js';

const shell = await hostShell();
const { timeline: host, send, fail, failed, app, anonymousBefore, memoryBefore } = shell;
const spec = /** @type {import('../task-runner.js').RunnerSpec & { pool: PoolSpec }} */ (shell.spec);
const mode = /** @type {'workers'|'procs'} */ (process.argv[3]);

/**
 * @typedef {object} PoolSpec  the pool a cell builds (plan.pool)
 * @property {'tinypool'|'workerpool'|'piscina'} name
 * @property {string | null} [processModule]  piscina's process arm: tinypool's entry
 * @property {string} module  the package's entry, resolved (the user's project's first)
 * @property {number} batch  ops of the task in one pool task
 * @property {boolean} isolate  tinypool's isolateWorkers: a fresh worker for every pool task
 * @property {Record<string, { combine?: 'sum'|'max'|'mean' }>} [combine]  a task's own metrics, how
 *   each combines over a worker's pool tasks
 */

// a pool's thread that exits (the task's process.exit) ends without settling its pool task:
// it says so on its way out (work.js), and the cell fails at once, as a raw cell's would
const exiting = mode === 'workers' ? new BroadcastChannel(EXITING) : null;
exiting?.unref();
if (exiting)
  exiting.onmessage = (/** @type {any} */ { data }) =>
    fail(-1, { message: `exited with code ${data.code} before finishing`, exitCode: data.code });

// the pool's package is loaded as the app loads its modules, before it asks for its workers:
// start-up, as a raw cell's, runs from that request to the last set up
const build = await poolBuilder(spec.pool, mode, {
  tinypool: new URL('./tinypool.js', import.meta.url).href,
  // a path, not a URL's pathname: a folder with a space in it stays as it is
  workerpool: fileURLToPath(new URL('./workerpool.js', import.meta.url)),
  semiSpaceMb: spec.semiSpaceMb,
});
const requested = String(process.hrtime.bigint());
// the app's pool: built again for each further cycle (--cycles), as an app that recycles it
let pool = build(spec.k);
/** @type {Map<string, import('../../stats/samples.js').WarmupDone>} each worker's warmup, by its id */
const ramps = new Map();

try {
  // with isolateWorkers every pool task has a fresh worker, which sets itself up (work.js)
  const members = spec.pool.isolate ? new Map() : await setUpMembers();
  // the workers' /proc files opened and read once now, not first at the window
  if (accounting()) readThreads(members);
  if (!spec.pool.isolate) await warmUp();
  const warm = String(process.hrtime.bigint());
  send({ type: 'ready' });
  process.on('message', (/** @type {any} */ message) => {
    if (message?.type === 'go') window(members, warm).catch((error) => fail(-1, poolFailure(error)));
    if (message?.type === 'end') shell.ending(end(), poolFailure);
    if (message?.type === 'exit') {
      exiting?.close();
      process.exit(0);
    }
  });
} catch (error) {
  fail(-1, poolFailure(error));
}

/**
 * A pool task's failure as a cell's: a worker the pool lost is said as the exit or signal that
 * ended it (workerpool words it in a paragraph: "Workerpool Worker terminated Unexpectedly",
 * then `exitCode: \`5\`` and the like, a line each); anything else as the task's error.
 * @param {unknown} error
 */
function poolFailure(error) {
  const serialized = serializeError(error);
  if (!serialized.message.startsWith('Workerpool Worker terminated Unexpectedly')) return serialized;
  const field = (/** @type {string} */ name) => new RegExp(`${name}: \`([^\`]*)\``).exec(serialized.message)?.[1];
  const [code, signal] = [field('exitCode'), field('signalCode')];
  if (signal && signal !== 'null' && signal !== 'undefined') return { message: `was killed by ${signal}`, signal };
  if (code !== undefined && /^\d+$/.test(code))
    return { message: `exited with code ${code} before finishing`, exitCode: Number(code) };
  return { ...serialized, message: 'workerpool lost a worker, which ended without its exit code or signal' };
}

/**
 * Every one of the K workers set up: setup tasks, K at a time, until K distinct workers have
 * loaded the task (a pool may hand two to one worker; the second says it was set up already).
 * @returns {Promise<Map<string, { index: number, pid: number, thread: string, loaded: string, setUp: string }>>}
 */
async function setUpMembers() {
  /** @type {Map<string, { index: number, pid: number, thread: string, loaded: string, setUp: string }>} */
  const members = new Map();
  const free = Array.from({ length: spec.k }, (_, index) => index);
  for (let tries = 0; members.size < spec.k; tries++) {
    if (tries > 20) throw new Error(`the pool set up ${members.size} of ${spec.k} workers after ${tries} tries`);
    const indices = free.splice(0, spec.k - members.size);
    const answers = await Promise.all(
      indices.map((index) => pool.run({ type: 'setup', spec: { ...spec, pool: undefined }, index, mode })),
    );
    answers.forEach((answer, i) => {
      if (answer.again) free.push(indices[i]);
      else
        members.set(answer.id, {
          ...{ index: indices[i], pid: answer.pid, thread: `/proc/${answer.thread}` },
          ...{ loaded: answer.loaded, setUp: answer.setUp },
        });
    });
  }
  return members;
}

/**
 * The warmup, in the window's batches, K in flight: `spec.warmup` ops a worker, or where the cells
 * warm up until steady, one window's (a pool's workers are warmed by its own tasks: no rate of
 * one worker is read between them).
 */
async function warmUp() {
  const ops = spec.steady ? spec.iterations : spec.warmup;
  const tasks = Math.ceil((spec.k * ops) / spec.pool.batch);
  /** @type {Map<string, { from: bigint, ends: bigint[] }>} */
  const by = new Map();
  await drain(tasks, (result) => {
    const seen = by.get(result.id) ?? { from: BigInt(result.start), ends: [] };
    by.set(result.id, seen);
    seen.ends.push(BigInt(result.end));
  });
  // each worker's first tasks, as the cells' ramp (stats/ramp.js): its tasks' ends from its
  // first op, the time between its tasks in them: a fresh pool's first ops and its time to full speed
  for (const [id, { from, ends }] of by)
    ramps.set(id, {
      ops: ends.length * spec.pool.batch,
      ms: Number(/** @type {bigint} */ (ends.at(-1)) - from) / 1e6,
      capped: false,
      ramp: {
        from: String(from),
        batch: spec.pool.batch,
        atUs: ends.map((end) => Math.round(Number(end - from) / 1e3)),
      },
    });
}

/**
 * `tasks` pool tasks of a batch each, K in flight: each finished one starts the next.
 * @param {number} tasks
 * @param {(result: any) => void} each
 * @param {boolean} [timed]  the window's tasks: each comes back with its worker's counters and
 *   sampled op times
 */
async function drain(tasks, each, timed = false) {
  let submitted = 0;
  // a fresh worker a task (isolate) is told how to set up, and which lane it stands in for
  const message = (/** @type {number} */ lane) =>
    spec.pool.isolate
      ? {
          ...{ type: 'batch', ops: spec.pool.batch, timed, teardown: true },
          setup: { spec: { ...spec, pool: undefined }, index: lane, mode },
        }
      : { type: 'batch', ops: spec.pool.batch, timed };
  const lane = async (/** @type {unknown} */ _, /** @type {number} */ index) => {
    while (submitted < tasks) {
      submitted++;
      each({ ...(await pool.run(message(index))), lane: index });
    }
  };
  await Promise.all(Array.from({ length: spec.k }, lane));
}

/**
 * The timed window: K × iterations ops through the pool; each worker's sample from its batches.
 * @param {Map<string, { index: number, pid: number, thread: string, loaded: string, setUp: string }>} members
 * @param {string} warm  when the warmup ended (hrtime ns)
 */
async function window(members, warm) {
  app.release();
  const before = process.resourceUsage();
  // each worker thread's counters, read here around the window as a raw cell's worker reads its
  // own: nothing of the harness's in the pool's tasks (a fresh worker a task reads its own)
  const counted = accounting() ? readThreads(members) : null;
  /** @type {Map<string, Worked>} */
  const by = new Map();
  await drain(
    Math.ceil((spec.k * spec.iterations) / spec.pool.batch),
    (result) => {
      // a worker's tasks; with a fresh worker a task (isolate), a lane's: K of them, as K workers
      const key = spec.pool.isolate ? `lane ${result.lane}` : result.id;
      by.set(key, worked(by.get(key), result));
    },
    true,
  );
  if (counted) {
    const after = readThreads(members);
    for (const [id, one] of by)
      if (counted.has(id) && after.has(id))
        one.accounts = [windowAccount(/** @type {any} */ (counted.get(id)), /** @type {any} */ (after.get(id)), null)];
  }
  const last = [...by.values()].reduce((latest, one) => (one.end > latest ? one.end : latest), 0n);
  const main = app.read(last);
  // each worker's teardown after its window, as a raw worker's after its loop (with a fresh
  // worker a task, each ran its own at the end of its task), before the tree's memory is read
  if (!spec.pool.isolate) await tearDownMembers();
  send(resultOf(by, { members, warm, before, main }));
}

/**
 * Every one of the K workers torn down: teardown tasks, K at a time, until K distinct workers
 * have run the task's teardown (a pool may hand two to one worker; the second says so).
 */
async function tearDownMembers() {
  const done = new Set();
  for (let tries = 0; done.size < spec.k; tries++) {
    if (tries > 20) throw new Error(`the pool tore down ${done.size} of ${spec.k} workers after ${tries} tries`);
    const answers = await Promise.all(Array.from({ length: spec.k - done.size }, () => pool.run({ type: 'teardown' })));
    for (const answer of answers) if (!answer.again) done.add(answer.id);
  }
}

/**
 * Each worker thread's counters, read from its /proc folder by the app's main thread.
 * @param {Map<string, { thread: string }>} members
 * @returns {Map<string, import('../thread-counters.js').Counters>}
 */
function readThreads(members) {
  return new Map([...members].map(([id, { thread }]) => [id, readCounters(thread)]));
}

/**
 * @typedef {{ ops: number, tasks: number, busyNs: number, start: bigint, end: bigint,
 *   cpuFrom: number | null, cpuTo: number | null, switchesFrom: number, switchesTo: number,
 *   accounts: import('../thread-counters.js').WindowAccount[], opTimes: import('../../stats/samples.js').OpTimes[],
 *   done: Array<[number, bigint]>, metrics: Array<Record<string, number>>, droppedOutput?: number }} Worked
 *   one worker's (or, with isolate, one lane's) window so far: its tasks' ops, their time in the
 *   worker, its first start and last end; its thread's account (with isolate, task by task: a
 *   fresh thread each), and its tasks' sampled op times; done: each task's ops and end, in order; metrics: what a task of its own reported, task by task
 */

/**
 * One more pool task of a worker's window.
 * @param {Worked | undefined} seen
 * @param {any} result  the task's, from work.js
 * @returns {Worked}
 */
function worked(seen, result) {
  const [start, end] = [BigInt(result.start), BigInt(result.end)];
  /** @type {Worked} */
  const one = seen ?? {
    ...{ ops: 0, tasks: 0, busyNs: 0, start, end, accounts: [], opTimes: [], done: [], metrics: [] },
    ...{ cpuFrom: result.cpuUs, cpuTo: null, switchesFrom: result.switches, switchesTo: result.switches },
  };
  one.ops += result.ops;
  one.tasks++;
  one.done.push([result.ops, end]);
  one.busyNs += Number(end - start);
  if (end > one.end) one.end = end;
  if (start < one.start) one.start = start;
  one.cpuTo = result.cpuUs;
  one.switchesTo = result.switches;
  if (result.counters) one.accounts.push(windowAccount(result.counters[0], result.counters[1], null));
  if (result.opTimes) one.opTimes.push(result.opTimes);
  if (result.metrics) one.metrics.push(result.metrics);
  if (result.droppedOutput) one.droppedOutput = Math.max(one.droppedOutput ?? 0, result.droppedOutput);
  return one;
}

/**
 * The window's result, as a cell's host sends it: a sample per worker (or lane), the pool's own
 * figures, the usage, and the tree.
 * @param {Map<string, Worked>} by
 * @param {{ members: Map<string, { index: number, pid: number, thread: string, loaded: string, setUp: string }>, warm: string,
 *   before: NodeJS.ResourceUsage, main: import('../../stats/samples.js').CellMain | undefined }} window
 */
function resultOf(by, { members, warm, before, main }) {
  const samples = [...by].map(([id, one], lane) => {
    const member = members.get(id);
    return {
      index: member?.index ?? lane,
      pid: member?.pid ?? process.pid,
      ops: one.ops,
      start: String(one.start),
      end: String(one.end),
      ...(member ? { timeline: { loaded: member.loaded, setUp: member.setUp, warm } } : {}),
      ...(ramps.has(id) ? { warmup: ramps.get(id) } : {}),
      ...accountOf(one),
      ...(spec.slices && one.done.length >= SLICES ? { slices: slicesOf(one) } : {}),
      ...(one.metrics.length ? { metrics: metricsOf(one.metrics) } : {}),
      ...(one.droppedOutput ? { droppedOutput: one.droppedOutput } : {}),
    };
  });
  const total = (/** @type {(one: any) => number} */ of) => [...by.values()].reduce((sum, one) => sum + of(one), 0);
  // the CPU and the involuntary switches of the window: a thread pool's from this process, which
  // holds its threads (as the workers host reads them); a process pool's from each child's
  // first and last task (its process's, all its threads)
  const usage =
    mode === 'workers'
      ? usageBetween(before, process.resourceUsage())
      : {
          cpuUs: total((one) => Math.max(0, (one.cpuTo ?? 0) - (one.cpuFrom ?? 0))),
          involuntarySwitches: total((one) => one.switchesTo - one.switchesFrom),
        };
  return {
    type: 'result',
    samples,
    // the pool's own share: its tasks, their ops' time in the workers and the workers' windows
    pool: {
      tasks: total((one) => one.tasks),
      busyNs: total((one) => one.busyNs),
      windowNs: total((one) => Number(one.end - one.start)),
    },
    usage,
    host: { ...host, requested },
    // the children a process pool forked: the tree the CLI reads the memory of
    ...(mode === 'procs' ? { children: [...members.values()].map((one) => ({ pid: one.pid })) } : {}),
    anonymousBefore,
    main,
  };
}

/**
 * A worker's account and op times over its window: its thread's counters' change over the window
 * (with a fresh worker a task, each task's thread's over its ops, summed: the spawn between two
 * tasks reads as blocked), the ops its tasks timed, their histograms merged. No account with it
 * off (MMAPBENCH_ACCOUNT=off).
 * @param {Worked} one
 * @returns {{ account?: import('../thread-counters.js').WindowAccount, opTimes?: import('../../stats/samples.js').OpTimes }}
 */
function accountOf(one) {
  /** @type {{ account?: import('../thread-counters.js').WindowAccount, opTimes?: import('../../stats/samples.js').OpTimes }} */
  const of = {};
  const summed = one.accounts.length ? cellAccount(one.accounts.map((account) => ({ ops: 0, account }))) : null;
  if (summed) {
    const { ops: _, slices: __, ...account } = summed;
    of.account = {
      ...account,
      wallNs: Number(one.end - one.start),
      missing: { ...account.missing, gcNs: NO_GC, gcCount: NO_GC },
    };
  }
  if (one.opTimes.length === one.tasks) {
    const untimed = one.opTimes.find((times) => 'untimed' in times && times.untimed !== TOO_SHORT);
    const counted = one.opTimes.flatMap((times) => ('histogram' in times ? [times] : []));
    of.opTimes =
      untimed ??
      (counted.length
        ? {
            every: Math.max(...counted.map((times) => times.every)),
            ops: counted.reduce((sum, times) => sum + times.ops, 0),
            histogram: mergeHistograms(counted.map((times) => times.histogram)),
          }
        : { untimed: TOO_SHORT });
  }
  return of;
}

/**
 * A worker's own metrics over its window: each of its pool tasks' combined as the task declares
 * (a sum, a max, a mean), as the CLI combines them over the workers.
 * @param {Array<Record<string, number>>} tasks
 * @returns {Record<string, number>}
 */
function metricsOf(tasks) {
  const combined = combineMetrics(
    tasks.map((metrics) => ({ metrics })),
    spec.pool.combine ?? {},
  );
  return /** @type {Record<string, number>} */ (
    Object.fromEntries(Object.entries(combined).filter(([, value]) => value !== null))
  );
}

/**
 * A worker's window in tenths of its pool tasks, in order, as a raw window's tenths: each its
 * tasks' ops over the time from the last tenth's end to its own (the time between tasks in it),
 * so a tenth's rate is the window's rate over that stretch. Page faults are the account's alone.
 * @param {Worked} one
 * @returns {import('../../stats/samples.js').Slice[]}
 */
function slicesOf(one) {
  const slices = [];
  let from = one.start;
  for (let slice = 0, at = 0; slice < SLICES; slice++) {
    const to = Math.floor((one.done.length * (slice + 1)) / SLICES);
    let ops = 0;
    for (; at < to; at++) ops += one.done[at][0];
    const end = one.done[to - 1][1];
    slices.push({ ns: Number(end - from), ops, minflt: null });
    from = end;
  }
  return slices;
}

// a pool's workers run its tasks between the pool's messages: their GC pauses are not watched
const NO_GC = "a pool's workers do not watch their GC pauses";

/**
 * The app ends its pool (destroy), as it would, and reads what it kept; with --cycles, builds,
 * sets up, warms and runs a pool again and ends it each time, as an app that recycles its pool
 * (each further window untimed: throughput is the first's).
 */
const end = () =>
  endCycles({
    spec: /** @type {import('../ending.js').EndSpec} */ (spec.end),
    first: pool,
    async again() {
      pool = build(spec.k);
      if (!spec.pool.isolate) {
        await setUpMembers();
        await warmUp();
      }
      await drain(Math.ceil((spec.k * spec.iterations) / spec.pool.batch), () => {});
      if (!spec.pool.isolate) await tearDownMembers();
      return pool;
    },
    end: (built) => built.destroy(),
    before: memoryBefore,
    failed,
    send,
  });
