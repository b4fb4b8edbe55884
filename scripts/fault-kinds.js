#!/usr/bin/env node
// What one failing worker takes down, in each mode, without mmapbench: an app (a fresh Node
// process) starts K workers (Worker threads, or forked children) that each read a 64 KiB file in a
// loop, keeps serving requests on its main thread (a 1 ms timer, each tick one request), and after
// `--after` ms tells worker 0 to fail: `throw` (an uncaught exception), `exit`
// (process.exit(1)), `abort` (SIGABRT to its process, as a native crash raises it) or `oom` (a
// JavaScript heap out of memory: resourceLimits.maxOldGenerationSizeMb for a thread,
// --max-old-space-size for a child, both 64 MiB) or `native-oom` (native memory, Buffers, past a
// memory cgroup's limit on the failing worker's process alone: 512 MiB under cgroup v1's memory
// controller, as root; a thread's process is the app, a child is moved there as it is forked). The app replaces what it lost as an app does (on `exit`, one new worker) and
// reports, from its own clock: whether it kept running, the workers lost, when it knew (its
// first 'error' or 'exit' event after the order), when the replacement was up (its first
// message), and the longest gap between its requests around the fault. Run under each Node given.
// Nothing here is asserted: read the output (docs/how-it-measures.md).
//
//   node scripts/fault-kinds.js [--k 2] [--after 300] [--kinds throw,exit,abort,oom,native-oom]
//     [--node PATH ...] [--json]
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const me = fileURLToPath(import.meta.url);
const HEAP_MB = 64;

/** A worker: read the file in a loop, say it is alive, and fail as told. */
function workerLoop(/** @type {string} */ file, /** @type {(message: unknown) => void} */ send) {
  /** @type {string | null} */
  let fail = null;
  const hold = [];
  const step = () => {
    if (fail === 'throw') throw new Error('a failing task');
    if (fail === 'exit') process.exit(1);
    // a native crash (an addon's segfault, an abort in C++) is a signal to the whole process;
    // process.abort() itself is refused in a Worker (ERR_WORKER_UNSUPPORTED_OPERATION)
    if (fail === 'abort') process.kill(process.pid, 'SIGABRT');
    if (fail === 'oom') for (;;) hold.push(new Array(1e6).fill(hold.length));
    // native memory, outside V8's heap: 16 MiB buffers, each page written, kept
    if (fail === 'native-oom') for (;;) hold.push(Buffer.alloc(16 << 20, 1));
    for (let i = 0; i < 100; i++) readFileSync(file);
    send('alive');
    setImmediate(step);
  };
  step();
  return (/** @type {string} */ kind) => (fail = kind);
}

const role = process.argv[2];
if (!isMainThread) {
  const failWith = workerLoop(workerData.file, (message) => parentPort?.postMessage(message));
  parentPort?.on('message', failWith);
} else if (role === '--child') {
  const failWith = workerLoop(process.argv[3], (message) => process.send?.(message));
  process.on('message', (/** @type {string} */ kind) => failWith(kind));
  // an app that died takes its children's channel with it: they end too, as a pool's would
  process.on('disconnect', () => process.exit(0));
} else if (role === '--app') app(process.argv[3], process.argv[4], JSON.parse(process.argv[5]));
else main();

/**
 * The app: K workers, a request every ms on its main thread, the fault, the replacement.
 * @param {string} mode @param {string} kind @param {{ k: number, after: number, file: string, limit?: string }} job
 *   limit: native-oom's memory cgroup, which worker 0 alone enters (a thread's, the app's process)
 */
function app(mode, kind, { k, after, file, limit }) {
  const now = () => performance.now();
  const say = (/** @type {Record<string, unknown>} */ fact) => process.stdout.write(`${JSON.stringify(fact)}\n`);
  let last = now();
  let longest = 0;
  const ticker = setInterval(() => {
    const at = now();
    longest = Math.max(longest, at - last);
    last = at;
  }, 1);
  const start = (/** @type {number} */ index) => {
    if (mode === 'thread')
      return new Worker(me, {
        workerData: { file },
        ...(kind === 'oom' && index === 0 ? { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } } : {}),
      });
    return fork(me, ['--child', file], {
      execArgv: kind === 'oom' && index === 0 ? [`--max-old-space-size=${HEAP_MB}`] : [],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
  };
  /** @type {any[]} */
  const workers = Array.from({ length: k }, (_, i) => start(i));
  if (limit) writeFileSync(join(limit, 'cgroup.procs'), String(mode === 'thread' ? process.pid : workers[0].pid));
  let ordered = 0;
  let lost = 0;
  let noticed = false;
  const notice = (/** @type {string} */ event, /** @type {unknown} */ detail) => {
    lost++;
    if (noticed) return;
    noticed = true;
    const noticeMs = now() - ordered;
    say({ event, detail: String(detail ?? ''), noticeMs });
    // an app replaces the worker it lost, and waits for its first sign of life
    const since = now();
    const replacement = start(1);
    workers.push(replacement);
    replacement.once('message', () => {
      say({ replaceMs: now() - since });
      // a moment to see whether more went down, then the report
      setTimeout(() => {
        say({ survived: true, lost, longestGapMs: longest });
        clearInterval(ticker);
        for (const one of workers) mode === 'thread' ? one.terminate() : one.kill();
      }, 200);
    });
  };
  workers.forEach((worker, i) => {
    worker.on(
      'error',
      (/** @type {Error & { code?: string }} */ error) => i === 0 && notice('error', error.code ?? error.message),
    );
    worker.on('exit', (/** @type {number} */ code, /** @type {string} */ signal) => {
      if (i !== 0 && !ordered) return;
      if (i === 0 && !noticed) notice('exit', signal ?? code);
      else if (i !== 0) lost++;
    });
  });
  setTimeout(() => {
    longest = 0;
    ordered = now();
    if (mode === 'thread') workers[0].postMessage(kind);
    else workers[0].send(kind);
  }, after);
}

/**
 * A fresh memory cgroup (v1) limited to 512 MiB, below this process's own, or null where none can
 * be made here.
 * @returns {string | null}
 */
function memoryCgroup() {
  try {
    const own =
      /^\d+:(?:[^:\n]*,)?memory(?:,[^:\n]*)?:(\/.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1] ?? '/';
    const dir = mkdtempSync(join('/sys/fs/cgroup/memory', own, 'fault-kinds-'));
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(512 << 20));
    return dir;
  } catch {
    return null;
  }
}

function main() {
  const { values } = parseArgs({
    options: {
      k: { type: 'string', default: '2' },
      after: { type: 'string', default: '300' },
      kinds: { type: 'string', default: 'throw,exit,abort,oom,native-oom' },
      node: { type: 'string', multiple: true, default: [process.execPath] },
      // one JSON object a line, { node, kind, mode, survived, lost, noticeMs, replaceMs }, for
      // scripts/self-check.js
      json: { type: 'boolean', default: false },
    },
  });
  const row = (/** @type {string} */ line, /** @type {object} */ fact) =>
    console.log(values.json ? JSON.stringify(fact) : line);
  const dir = mkdtempSync(join(tmpdir(), 'fault-kinds-'));
  const file = join(dir, 'data.bin');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  const job = { k: Number(values.k), after: Number(values.after), file };
  if (!values.json) {
    console.log(
      '| node | kind | mode | app survived | lost of K | noticed after | replaced in | longest request gap |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
  }
  for (const node of values.node) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    for (const kind of values.kinds.split(','))
      for (const mode of ['thread', 'process']) {
        const cgroup = kind === 'native-oom' ? memoryCgroup() : null;
        const app = [node, me, '--app', mode, kind, JSON.stringify({ ...job, ...(cgroup ? { limit: cgroup } : {}) })];
        if (kind === 'native-oom' && !cgroup) {
          row(`| ${version} | ${kind} | ${mode} | not tried: no writable cgroup v1 memory controller (root) |`, {
            node: version,
            kind,
            mode,
            tried: false,
          });
          continue;
        }
        const run = spawnSync(app[0], app.slice(1), { encoding: 'utf8', timeout: 30000 });
        // a cgroup is removed with rmdir, once nothing is left in it
        if (cgroup) rmdirSync(cgroup);
        const facts = Object.assign(
          {},
          ...run.stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        );
        const survived = facts.survived === true;
        const ms = (/** @type {number | undefined} */ value) => (value === undefined ? '-' : `${value.toFixed(1)} ms`);
        row(
          `| ${version} | ${kind} | ${mode} | ${survived ? 'yes' : `no (${run.signal ?? `exit ${run.status}`})`} | ${survived ? facts.lost : job.k} of ${job.k} | ${ms(facts.noticeMs)}${facts.detail ? ` (${facts.event}: ${facts.detail})` : ''} | ${ms(facts.replaceMs)} | ${survived ? ms(facts.longestGapMs) : '-'} |`,
          {
            node: version,
            kind,
            mode,
            tried: true,
            survived,
            lost: survived ? facts.lost : job.k,
            noticeMs: facts.noticeMs ?? null,
            replaceMs: facts.replaceMs ?? null,
          },
        );
      }
  }
  rmSync(dir, { recursive: true, force: true });
}
