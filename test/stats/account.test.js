import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { accountResults, cellAccount, meanStats, perOp, regimeOf } from '../../src/stats/account.js';
import { windowAccount } from '../../src/run/thread-counters.js';

/** A worker's window account: what the thread counted, in ns and counts. */
const window = (fields = {}) => ({
  wallNs: 1_000_000,
  cpuNs: 700_000,
  runqNs: 100_000,
  userNs: 200_000,
  systemNs: 500_000,
  split: 'ticks',
  minflt: 50,
  majflt: 0,
  voluntary: 2,
  involuntary: 1,
  gcNs: 30_000,
  gcCount: 1,
  missing: {},
  ...fields,
});

const slices = (perOpNs, ops = 10) => perOpNs.map((ns) => ({ ns: ns * ops, ops, minflt: 1 }));

test('windowAccount: deltas of two readings, on-CPU time split by the share of ticks', () => {
  const before = {
    atNs: 0,
    cpuNs: 1000,
    runqNs: 10,
    minflt: 5,
    majflt: 0,
    utimeTicks: 10,
    stimeTicks: 10,
    userUs: null,
    systemUs: null,
    voluntary: 3,
    involuntary: 1,
  };
  const after = {
    ...before,
    atNs: 50_000_000,
    cpuNs: 40_001_000,
    runqNs: 1_000_010,
    minflt: 105,
    utimeTicks: 11,
    stimeTicks: 13,
    voluntary: 4,
  };
  const account = windowAccount(before, after, { gcNs: 5, gcCount: 1 });
  assert.equal(account.wallNs, 50_000_000);
  assert.equal(account.cpuNs, 40_000_000);
  assert.equal(account.runqNs, 1_000_000);
  // 1 user tick and 3 system ticks: a quarter of the CPU time is user
  assert.equal(account.userNs, 10_000_000);
  assert.equal(account.systemNs, 30_000_000);
  assert.equal(account.split, 'ticks');
  assert.equal(account.minflt, 100);
  assert.equal(account.voluntary, 1);
  assert.deepEqual(account.missing, {});
});

test("windowAccount: Node's per-thread CPU usage splits user and system where it exists", () => {
  const before = {
    atNs: 0,
    cpuNs: 0,
    runqNs: 0,
    minflt: 0,
    majflt: 0,
    utimeTicks: 0,
    stimeTicks: 0,
    userUs: 100,
    systemUs: 50,
    voluntary: 0,
    involuntary: 0,
  };
  const after = { ...before, atNs: 10_000, cpuNs: 9_000, userUs: 103, systemUs: 56 };
  const account = windowAccount(before, after, null);
  assert.equal(account.split, 'thread-cpu-usage');
  assert.equal(account.userNs, 3000);
  assert.equal(account.systemNs, 6000);
  assert.equal(account.gcNs, null);
  assert.match(account.missing.gcNs, /no gc entries/);
});

test('windowAccount: a machine without schedstat or a window under one tick says what it lacks', () => {
  const before = {
    atNs: 0,
    cpuNs: null,
    runqNs: null,
    minflt: 0,
    majflt: 0,
    utimeTicks: 5,
    stimeTicks: 5,
    userUs: null,
    systemUs: null,
    voluntary: 0,
    involuntary: 0,
  };
  const account = windowAccount(before, { ...before, atNs: 1000 }, { gcNs: 0, gcCount: 0 });
  assert.equal(account.runqNs, null);
  assert.match(account.missing.runqNs, /schedstat/);
  assert.equal(account.userNs, null);
  assert.match(account.missing.userNs, /tick/);
});

test('cellAccount sums the workers, a field null when a worker lacks it, tenths summed tenth by tenth', () => {
  const cell = cellAccount([
    { ops: 100, account: window(), slices: slices([2, 1]) },
    { ops: 100, account: window({ runqNs: null }), slices: slices([4, 2]) },
  ]);
  assert.equal(cell?.ops, 200);
  assert.equal(cell?.wallNs, 2_000_000);
  assert.equal(cell?.cpuNs, 1_400_000);
  assert.equal(cell?.runqNs, null);
  assert.deepEqual(cell?.slices, [
    { ns: 60, ops: 20, minflt: 2 },
    { ns: 30, ops: 20, minflt: 2 },
  ]);
  assert.equal(cellAccount([{ ops: 1 }]), null, 'a host that sent no account gives none');
});

test('perOp: blocked is the rest of the wall time; the process CPU outside the threads is the rest', () => {
  const cell = /** @type {any} */ (cellAccount([{ ops: 100, account: window() }]));
  const lines = perOp(cell, { cpuMs: 1 });
  assert.equal(lines.wallNs, 10_000);
  assert.equal(lines.blockedNs, 2_000); // 1 ms − 0.7 ms on a CPU − 0.1 ms waiting for one, per 100 ops
  assert.equal(lines.userNs + lines.systemNs + lines.runqNs + lines.blockedNs, lines.wallNs);
  assert.equal(lines.restNs, 3_000);
  assert.equal(lines.minflt, 0.5);
});

test('meanStats: a t interval on the mean, none from one round', () => {
  assert.deepEqual(meanStats([5]), { mean: 5, ci95: null, n: 1 });
  const stats = /** @type {any} */ (meanStats([1, 2, 3]));
  assert.equal(stats.mean, 2);
  // t(0.975, 2) = 4.303, sd 1, n 3
  assert.ok(Math.abs(stats.ci95[1] - (2 + 4.303 / Math.sqrt(3))) < 1e-3);
  assert.equal(meanStats([]), null);
});

test('regimeOf: a last tenth much faster than the first is a heap still warming up', () => {
  const cell = (first, last) => ({ slices: slices([first, 1, 1, last]) });
  const warming = regimeOf(/** @type {any} */ ([cell(3, 1), cell(2, 1), cell(2.5, 1)]));
  assert.equal(warming?.state, 'warming');
  assert.equal(warming?.speedup, 2.5);
  assert.equal(regimeOf(/** @type {any} */ ([cell(1.05, 1)]))?.state, 'steady');
  assert.equal(regimeOf(/** @type {any} */ ([cell(1, 2)]))?.state, 'slowing');
  assert.equal(regimeOf(/** @type {any} */ ([{ slices: null }])), null);
});

test('accountResults of a saved compare: the same figures as the run saved, each mode and the difference', () => {
  const saved = JSON.parse(readFileSync(new URL('../fixtures/saved/compare-account.json', import.meta.url), 'utf8'));
  const rounds = saved.rounds
    .filter((round) => round.complete)
    .map((round) => ({ cells: { workers: round.workers, procs: round.procs } }));
  const account = accountResults(rounds, ['workers', 'procs'], saved.config.k);
  const { words, ...figures } = saved.account;
  // saved before warmups until steady: its cells warmed up a fixed count, so none is summarised
  const { warmup, ...rest } = JSON.parse(JSON.stringify(account));
  assert.deepEqual(warmup, { workers: null, procs: null });
  assert.deepEqual(rest, figures);
  const line = (key) => account.lines.find((l) => l.key === key);
  for (const key of ['wallNs', 'runqNs', 'blockedNs', 'minflt', 'voluntary', 'gcNs'])
    for (const mode of ['workers', 'procs']) assert.ok(line(key)?.modes[mode], `${key} ${mode}`);
  // the difference is workers − procs, round by round
  const wall = /** @type {any} */ (line('wallNs'));
  assert.ok(Math.abs(wall.diff.mean - (wall.modes.workers.mean - wall.modes.procs.mean)) < 1e-6);
  // the time lines add up to the wall time, in each mode
  for (const mode of ['workers', 'procs']) {
    const sum = ['userNs', 'systemNs', 'runqNs', 'blockedNs'].reduce((s, key) => s + line(key).modes[mode].mean, 0);
    assert.ok(Math.abs(sum - wall.modes[mode].mean) < 1e-6 * wall.modes[mode].mean, mode);
  }
});

test("a task that talks to its parent: the parent's main thread CPU per op is a line of its own, and no line for other tasks", () => {
  const account = {
    ops: 1000,
    wallNs: 2e8,
    cpuNs: 1e8,
    runqNs: 1e7,
    userNs: 6e7,
    systemNs: 4e7,
    split: 'ticks',
    minflt: 10,
    majflt: 0,
    voluntary: 5,
    involuntary: 1,
    gcNs: 0,
    gcCount: 0,
    missing: {},
  };
  assert.equal(perOp(/** @type {any} */ (account), { cpuMs: 150 }, 5e7).parentNs, 5e4);
  assert.equal(perOp(/** @type {any} */ (account), { cpuMs: 150 }).parentNs, null);
});
