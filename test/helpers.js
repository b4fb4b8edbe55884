import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import assert from 'node:assert/strict';
import { pointView } from '../src/document/points-of.js';

export const BIN = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
export const fixture = (name) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/**
 * Where the CLI runs by the tests save their results (MMAPBENCH_RESULTS): a folder of this
 * test file's own, never the checkout.
 */
export const RESULTS = mkdtempSync(join(tmpdir(), 'mmapbench-results-'));
/** The environment every run of the CLI by the tests gets. */
export const ENV = { NO_COLOR: '1', MMAPBENCH_RESULTS: RESULTS };

/** Runs the real CLI; never rejects, so a test can assert the exit code. */
export const cli = (args, options = {}) =>
  execa(process.execPath, [BIN, ...args], {
    reject: false,
    timeout: 120000,
    ...options,
    env: { ...ENV, ...options.env },
  });

/**
 * Pids of processes whose environment carries this marker: cells are started with
 * `--env MMAPBENCH_TEST_MARK=...`, so after the CLI exits this must come back empty.
 */
export function processesMarked(mark) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`MMAPBENCH_TEST_MARK=${mark}`)) found.push(Number(pid));
    } catch {}
  }
  return found;
}

let counter = 0;
export const uniqueMark = () => `${process.pid}-${Date.now()}-${counter++}`;

/**
 * Tests that act as another local user (a hostile one) need root; they skip elsewhere, except
 * under CI, which runs as root and must not report them as passing without running them.
 */
export const asRoot =
  process.getuid?.() === 0 || process.env.CI ? {} : { skip: 'needs root to act as another user (nobody)' };

/** Runs a shell command as the unprivileged user nobody, the way a hostile local user would. */
export const asNobody = (script) =>
  execa('setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', 'sh', '-c', script], {
    env: { PATH: '/usr/bin:/bin' },
  });

/** A temporary folder anyone may write, like /tmp (sticky, 1777). */
export function sharedTmp() {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

/** A root-only file with known content, to show it was not touched. */
export function victim(content = 'secret: not to be overwritten\n') {
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-victim-')), 'victim');
  writeFileSync(path, content, { mode: 0o600 });
  return { path, content };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `ready()` every 20 ms until it holds or `ms` have passed; says whether it held. */
export async function until(ready, ms = 60000) {
  for (const end = Date.now() + ms; Date.now() < end; await pause(20)) if (ready()) return true;
  return ready();
}

/**
 * How many distinct processes of a run have been seen so far, polled from outside: with k=2 a
 * compare round starts 4 (one workers host; the procs parent and its two children), so 5 means
 * round 2 is under way.
 */
export function processCounter(mark) {
  const seen = new Set();
  return () => {
    for (const pid of processesMarked(mark)) seen.add(pid);
    return seen.size;
  };
}

/** Pids whose parent is `pid`. */
export function childrenOf(pid) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((child) => {
      try {
        // the command name is in parentheses and may hold spaces: the fields after it are fixed
        return Number(readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}

/** The results file a reproduce run wrote into `out`. */
export const resultsFile = (out) =>
  join(
    out,
    readdirSync(out).find((name) => /^reproduce-.*\.json$/.test(name)),
  );

/** The records of a reproduce run's results file: its calibrations and cells, in order. */
/**
 * A compare, workers or procs run's JSON (what --json printed, or its kept file) as that
 * command's readers take it: its one point's figures and rounds beside the run's fields.
 * @param {string} text
 */
export const measured = (text) => pointView(JSON.parse(text));

export const records = (file) => JSON.parse(readFileSync(file, 'utf8')).records;

/** How many cells a reproduce run in `out` has appended so far; 0 before its file exists. */
export const cellCount = (out) => () => {
  try {
    return records(resultsFile(out)).filter((r) => r.type === 'cell').length;
  } catch {
    return 0;
  }
};

/**
 * Starts the CLI and resolves once `ready()` holds, polled every 10 ms; wrapped, because the
 * subprocess is a thenable and returning it would wait for it to end.
 */
export async function startUntil(args, ready, env = {}) {
  const run = execa(process.execPath, [BIN, ...args], { reject: false, env: { ...ENV, ...env } });
  for (let i = 0; i < 3000 && !ready() && run.exitCode === null; i++) await pause(10);
  if (!ready()) throw new Error('the run did not reach the point the test waits for');
  return { run };
}

/**
 * A Node major from mmapbench's Node cache (`node scripts/install-node.js 22`, which .ci/run
 * calls for 22, 24 and 26): its path, and a skip reason where it is missing, except under CI,
 * where a missing Node is a failure, never a skip.
 * @param {string} major
 */
export async function installedNode(major) {
  const { binaryIn, installedReleases, nodeCacheDir, releaseDir } = await import('../src/system/node-release.js');
  const version = installedReleases(nodeCacheDir()).find((v) => v.startsWith(`${major}.`));
  const path = version ? binaryIn(releaseDir(nodeCacheDir(), version)) : `Node ${major} in the Node cache`;
  const missing = !version;
  return {
    path,
    missing,
    skip:
      missing && !process.env.CI
        ? `Node ${major} not installed here: run \`node scripts/install-node.js ${major}\``
        : false,
  };
}

/** The second Node major the tests run the quick compare on (24). */
export const secondNode = () => installedNode('24');

/**
 * Whether this machine can trace (root, tracefs with the mmap_lock tracepoints, bpftrace on
 * PATH): what is missing, and a skip that holds only outside CI, which installs all of it.
 */
export function tracingHere() {
  const missing =
    process.getuid?.() !== 0
      ? 'not root'
      : !existsSync('/sys/kernel/tracing/events/mmap_lock')
        ? 'tracefs not mounted or no mmap_lock tracepoints (mount -t tracefs nodev /sys/kernel/tracing)'
        : !(process.env.PATH ?? '').split(':').some((dir) => existsSync(`${dir}/bpftrace`))
          ? 'bpftrace not installed (apt-get install bpftrace)'
          : null;
  return {
    missing,
    // the test options that skip where tracing is impossible, except under CI
    skip: missing && !process.env.CI ? { skip: `cannot trace here: ${missing}` } : {},
    // under CI a missing piece is a failure, never a quiet skip
    requireTracing: () => {
      if (missing) assert.fail(`CI must be able to trace, but: ${missing}`);
    },
  };
}

/** SIGKILLs the CLI; within 5 s neither bpftrace nor a process carrying `mark` may be left. */
export async function killedLeavesNothing(run, mark) {
  run.kill('SIGKILL');
  await run;
  for (let i = 0; i < 100 && (tracers().length || processesMarked(mark).length); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(tracers(), []);
  assert.deepEqual(processesMarked(mark), []);
}

/**
 * Starts a traced compare of `iterations` per worker (3 rounds, its processes marked) and
 * resolves once bpftrace is running. The round's untraced cell runs before its traced one, so
 * whatever must land while bpftrace traces needs long cells; what lands while it attaches does not.
 * @param {string} iterations
 * @param {object} [options]  for cli()
 */
export async function tracedCompareUnderWay(iterations, options = {}) {
  const mark = uniqueMark();
  const run = cli(
    [
      'trace',
      'compare',
      '--iterations',
      iterations,
      '--warmup',
      '10',
      '--rounds',
      '3',
      '--json',
      '--env',
      `MMAPBENCH_TEST_MARK=${mark}`,
    ],
    options,
  );
  // judged on one look: a second read could miss a bpftrace that has already finished its cell
  let seen = tracers();
  for (let i = 0; i < 1200 && seen.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = tracers();
  }
  assert.ok(seen.length > 0, 'bpftrace started');
  return { run, mark };
}

/**
 * Ctrl-C, sent by `kill` `settle` ms after bpftrace started on a traced compare of `iterations`:
 * exit 130, status interrupted, no cell and no bpftrace left.
 */
export async function interruptsTracedRun({ iterations, settle, kill }) {
  const { run, mark } = await tracedCompareUnderWay(iterations, { detached: true });
  await new Promise((resolve) => setTimeout(resolve, settle));
  kill(run);
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  assert.match(result.stderr.trim().split('\n').at(-1), /^mmapbench: interrupted by SIGINT/);
  assert.equal(JSON.parse(result.stdout).status, 'interrupted');
  assert.deepEqual(processesMarked(mark), []);
  assert.deepEqual(tracers(), []);
}

/** bpftrace processes running mmap-lock.bt: none may outlive the CLI. */
export const tracers = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('mmap-lock.bt');
      } catch {
        return false;
      }
    });

/** A folder for a reproduce run, with a stand-in THP file (madvise) that the run may change. */
export function reproduceWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-reproduce-'));
  const thp = join(dir, 'enabled');
  writeFileSync(thp, 'always [madvise] never\n');
  return { dir, out: join(dir, 'out'), thp, restoreFile: join(dir, 'state', 'thp-restore.json') };
}

export const thpArgs = (w) => ['--thp-path', w.thp, '--thp-restore-file', w.restoreFile];
export const cellKey = (r) => `${r.experiment}|${r.variant}|${r.round}|${r.mode}`;

/**
 * Waits for the processes carrying `mark` to be gone, up to 12 s (the watcher, system/watcher.sh,
 * keeps killing a run's cgroup for 10 s), then asserts they are, naming any left: its command
 * line, state, parent and cgroup.
 */
export async function noneLeft(mark) {
  for (let i = 0; i < 240 && processesMarked(mark).length; i++) await new Promise((r) => setTimeout(r, 50));
  // a process already dead (a zombie that init has yet to reap) is not one left running, nor is
  // one past releasing its memory (its command line reads empty), which runs nothing more: in
  // test:long runs a zombie and a dying process were listed 12 s after the kill, both gone later
  const left = processesMarked(mark).flatMap((pid) => {
    const read = (/** @type {string} */ file) => {
      try {
        return readFileSync(`/proc/${pid}/${file}`, 'utf8');
      } catch (error) {
        return String(/** @type {Error} */ (error).message);
      }
    };
    // one read of its status decides and describes it: CI once listed as running a zombie that a
    // second read saw
    const status = read('status');
    const now = /^State:\s+(\S)/m.exec(status)?.[1] ?? 'gone';
    if (now === 'Z' || now === 'gone' || read('cmdline') === '') return [];
    const shown = status
      .split('\n')
      .filter((line) => /^(State|PPid):/.test(line))
      .join(', ');
    return [
      `${pid} ${read('cmdline').replace(/\0/g, ' ').trim()} (${shown}; cgroup ${read('cgroup').trim().replace(/\n/g, ' ')})`,
    ];
  });
  assert.deepEqual(left, []);
}

/**
 * `compare --quick` of one task, checked whole: both modes, two interleaved rounds, every
 * cell's workers and processes, the ratio. `extra` goes on the command line (`--node PATH`).
 */
export async function quickCompare(task, extra = []) {
  const result = await cli(['compare', '--task', task, '--quick', ...extra, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = measured(result.stdout);
  assert.equal(doc.status, 'complete');
  assert.equal(doc.config.task.name, task);
  assert.equal(doc.rounds.length, 2);
  // interleaved: the second round runs the modes in the other order
  assert.deepEqual(
    doc.rounds.map((round) => round.order),
    [
      ['workers', 'procs'],
      ['procs', 'workers'],
    ],
  );
  for (const round of doc.rounds) {
    for (const mode of ['workers', 'procs']) {
      const cell = round[mode];
      assert.equal(cell.workers.length, 2);
      assert.equal(cell.totalOps, 2 * doc.config.iterations);
      assert.ok(cell.throughput > 0 && cell.elapsedNs > 0);
      assert.ok(cell.workers.every((worker) => worker.endNs > worker.startNs));
    }
    const pids = new Set(round.procs.workers.map((worker) => worker.pid));
    assert.equal(pids.size, 2, 'procs mode runs each worker in its own process');
    assert.equal(new Set(round.workers.workers.map((worker) => worker.pid)).size, 1, 'workers mode shares one process');
    assert.ok(Math.abs(round.ratio - round.workers.throughput / round.procs.throughput) < 1e-9);
  }
  assert.ok(doc.workers.throughput.median > 0 && doc.procs.throughput.median > 0);
  // each round's cell a fresh tree: its rate among the mode's trees, two too few for states
  for (const mode of ['workers', 'procs']) {
    assert.deepEqual(
      doc[mode].trees.rates,
      doc.rounds.map((/** @type {any} */ round) => round[mode].throughput),
    );
    assert.equal(doc[mode].trees.states.length, 1);
    assert.deepEqual(doc[mode].trees.stateOf, [0, 0]);
  }
  assert.equal(doc.ratio.ci95.length, 2);
  assert.equal(doc.ratio.n, 2);
  assert.deepEqual(
    doc.ratio.samples,
    doc.rounds.map((round) => round.ratio),
  );
  return doc;
}

/** A trace's by-syscall rows add up to its totals, for writes and reads alike. */
export function assertSums(trace) {
  for (const kind of ['write', 'read']) {
    const rows = trace.bySyscall[kind];
    assert.equal(
      rows.reduce((sum, row) => sum + row.count, 0),
      trace[kind].count,
      `${kind} acquisitions by syscall add up`,
    );
    assert.equal(
      rows.reduce((sum, row) => sum + row.totalNs, 0),
      trace[kind].totalNs,
      `${kind} wait by syscall adds up`,
    );
  }
}

// The exports' documented shapes (github-action-benchmark's src/extract.ts BenchmarkResult; the
// Bencher Metric Format), as the unit tests and the CI example's run check them.
/** github-action-benchmark's BenchmarkResult, field by field, and nothing else. */
export function assertActionBenchmark(entries) {
  assert.ok(Array.isArray(entries) && entries.length > 0);
  for (const entry of entries) {
    assert.deepEqual(Object.keys(entry).sort(), ['extra', 'name', 'range', 'unit', 'value']);
    assert.equal(typeof entry.name, 'string');
    assert.equal(typeof entry.unit, 'string');
    assert.ok(Number.isFinite(entry.value) && entry.value > 0);
    assert.equal(typeof entry.range, 'string');
    assert.equal(typeof entry.extra, 'string');
  }
  assert.equal(new Set(entries.map((entry) => entry.name)).size, entries.length, 'names are unique');
}

/** The Bencher Metric Format: benchmarks of measures of a value and its bounds. */
export function assertBencher(document) {
  assert.equal(typeof document, 'object');
  assert.ok(!Array.isArray(document) && Object.keys(document).length > 0);
  for (const measures of Object.values(document)) {
    for (const metric of Object.values(measures)) {
      // the bounds are the format's optional fields: a figure of fewer than two rounds (a --quick
      // cell too short for the app's first request) has no interval to give
      const keys = Object.keys(metric).sort();
      assert.ok(
        JSON.stringify(keys) === '["value"]' || JSON.stringify(keys) === '["lower_value","upper_value","value"]',
        keys.join(', '),
      );
      assert.ok(Number.isFinite(metric.value));
      if (keys.length > 1) assert.ok(metric.lower_value <= metric.value && metric.value <= metric.upper_value);
    }
  }
}

/** A tmpfs of its own, unmounted when the test ends: the only way to make a disk full or read-only. */
export function tmpfs(t, options) {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-tmpfs-'));
  return execa('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]).then(() => {
    t.after(() => execa('umount', [dir]));
    return dir;
  });
}

/** Starts the CLI with a marker and resolves once `ready()` holds, polled every 20 ms. */
export async function startMarked(args, ready, { env = {}, ...options } = {}) {
  const mark = uniqueMark();
  const run = execa(process.execPath, [BIN, ...args, '--env', `MMAPBENCH_TEST_MARK=${mark}`], {
    reject: false,
    env: { ...ENV, ...env }, // the marker only in the cells (--env), so counts are of cells
    ...options,
  });
  for (let i = 0; i < 1500 && !ready(mark) && run.exitCode === null; i++) await pause(20);
  assert.ok(ready(mark), 'the run reached the point the test waits for');
  return { run, mark }; // wrapped: the subprocess is a thenable
}

/** Polls until no process of the run is left; the figure is how long that took. */
export async function goneWithin(mark, ms) {
  const started = Date.now();
  while (processesMarked(mark).length && Date.now() - started < ms) await pause(20);
  assert.deepEqual(processesMarked(mark), [], `processes of the run still alive ${ms} ms after the CLI died`);
}

// ops that sleep 2 ms: a round is cheap and takes as long however busy the machine is
export const SLEEPS = ['--task', fixture('account-probe.js'), '--param', 'kind=sleep', '--iterations', '20', '-k', '1'];

/**
 * What --resume asks the user to name again before a kept run loads or runs it: its task module
 * (`--task`) and each variable it sets in the cells (`--env`), as the file has them.
 * @param {any} document  a kept compare's document
 */
export const namedAgain = ({ resume }) => [
  ...(/[/\\]|\.[cm]?js$/.test(resume.task ?? '') ? ['--task', resolve(resume.cwd, resume.task)] : []),
  ...Object.entries(resume.env ?? {}).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
];

/** The one results document in `out`, parsed, or null while there is none. */
export function keptIn(out) {
  const name = readdirSync(out).find((file) => file.endsWith('.json'));
  if (!name) return null;
  return { path: join(out, name), document: JSON.parse(readFileSync(join(out, name), 'utf8')) };
}

/**
 * A compare of `rounds` rounds of sleeping ops SIGKILLed once 2 are kept: its file, its
 * document, and a copy for refusals.
 */
export async function killedCompare(rounds) {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-kept-'));
  const mark = uniqueMark();
  const args = ['compare', ...SLEEPS, '--rounds', String(rounds), '--out', out, '--env', `MMAPBENCH_TEST_MARK=${mark}`];
  const { run } = await startUntil(args, () => (keptIn(out)?.document.order.length ?? 0) >= 2);
  run.kill('SIGKILL');
  await run;
  await noneLeft(mark);
  const kept = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
  const copy = join(mkdtempSync(join(tmpdir(), 'mmapbench-kept-copy-')), 'compare.json');
  writeFileSync(copy, readFileSync(kept.path));
  return { ...kept, copy };
}

/** A run of spawns-tree.js, whose task starts processes at every depth, in its group and out of it. */
export const TREE = (mode, ...params) => [
  mode,
  '--task',
  fixture('spawns-tree.js'),
  '-k',
  '2',
  '--iterations',
  '10',
  '--warmup',
  '0',
  '--no-save',
  ...params.flatMap((param) => ['--param', param]),
];
/** per worker: a chain of 3 shells and its sleep, a shell in its own session and its sleep, an orphan */
export const treeUp = (k, perWorker) => (mark) => processesMarked(mark).length >= k * perWorker;

/**
 * `compare --quick -k 2 ...extra --json`, its cells marked, and nothing of its trees left once it
 * has ended: the run's result, for its exit code and document.
 * @param {string[]} extra
 */
export async function quickMarked(extra) {
  const mark = uniqueMark();
  const result = await cli([
    'compare',
    '--quick',
    '-k',
    '2',
    ...extra,
    '--no-save',
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
    '--json',
  ]);
  await noneLeft(mark);
  return result;
}

/**
 * A document's complete rounds, each with whether its workers timed ops: the second complete
 * round, the fourth, ... (run/scheduler.js, timedRound); the others read memory.
 * @param {any} document
 * @returns {Array<{ round: any, timed: boolean }>}
 */
export const roundsByTiming = (document) =>
  document.rounds
    .filter((/** @type {any} */ round) => round.complete)
    .map((round, i) => ({ round, timed: i % 2 === 1 }));
