import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { accountTable, accountWords } from '../../src/document/account-text.js';
import { renderTerminal } from '../../src/view/table.js';

const stats = (mean, half = null, n = 6) => ({ mean, ci95: half === null ? null : [mean - half, mean + half], n });

/**
 * An account as stats/account.js returns it, from per-op figures: each line's workers and procs
 * means and the difference with its half-width (µs for times).
 * @param {Record<string, [number, number, number, number]>} lines  key: [workers, procs, diff, half]
 */
function account(lines, { split = 'ticks', regime = {}, seen = null, warmup = undefined } = {}) {
  const scale = (key) => (key.endsWith('Ns') ? 1000 : 1);
  return {
    rounds: 6,
    lines: Object.entries(lines).map(([key, [w, p, diff, half]]) => ({
      key,
      modes: { workers: stats(w * scale(key), 0.1 * scale(key)), procs: stats(p * scale(key), 0.1 * scale(key)) },
      diff: stats(diff * scale(key), half * scale(key)),
    })),
    seen: { modes: {}, diff: seen },
    regime,
    warmup,
    split,
    missing: {},
  };
}

const run = { names: /** @type {[string, string]} */ (['workers', 'procs']), traced: false, protocol: 'steady' };

// the cold-heap case of a fresh worker at k=1: system time and page faults
const coldHeap = account({
  wallNs: [45, 21, 24, 2],
  userNs: [9, 8, 1, 2],
  systemNs: [34, 12, 22, 2],
  runqNs: [1, 0.5, 0.5, 1],
  blockedNs: [1, 0.5, 0.5, 1],
  minflt: [8.7, 0.05, 8.65, 0.5],
  gcNs: [0.4, 0.4, 0, 0.1],
});

test('a difference of system time with more page faults is named as such, with what to try', () => {
  const { reading, advice } = accountWords(coldHeap, run);
  assert.match(reading ?? '', /^workers spend 24\.0 µs more per op than procs: 22\.0 µs more system time/);
  assert.match(reading ?? '', /with 8\.65 more page faults per op/);
  // a part whose difference's interval spans 0 is equal, not named as a cause
  assert.match(reading ?? '', /; user time, time waiting for a CPU, blocked time and GC are equal$/);
  assert.match(advice ?? '', /^page faults, not lock waits: try `--env MALLOC_TOP_PAD_=67108864`/);
});

test('blocked time points at the trace when untraced, and says whether mmap_lock explains it when traced', () => {
  const lines = {
    wallNs: [60, 30, 30, 3],
    userNs: [10, 10, 0, 1],
    systemNs: [15, 14, 1, 2],
    runqNs: [1, 1, 0, 0.5],
    blockedNs: [34, 5, 29, 3],
    minflt: [1, 1, 0, 0.2],
  };
  assert.match(accountWords(account(lines), run).advice ?? '', /run `mmapbench trace compare`/);
  const traced = { ...run, traced: true };
  const onLock = accountWords(account({ ...lines, lockWriteNs: [25, 1, 24, 2] }), traced).advice ?? '';
  assert.match(onLock, /^mmap_lock: 24\.0 µs per op of the blocked time is waiting for it/);
  const notLock = accountWords(account({ ...lines, lockWriteNs: [2, 1, 1, 0.5] }), traced).advice ?? '';
  assert.match(notLock, /not on mmap_lock/);
});

test('procs slower: the sentence names procs first; equal modes say so with the interval', () => {
  const slower = account({
    wallNs: [20, 25, -5, 1],
    userNs: [5, 5, 0, 1],
    systemNs: [14, 19, -5, 1],
    runqNs: [0, 0, 0, 0.1],
    blockedNs: [1, 1, 0, 0.1],
  });
  assert.match(
    accountWords(slower, run).reading ?? '',
    /^procs spend 5\.00 µs more per op than workers: 5\.00 µs more system time/,
  );
  const same = account({
    wallNs: [20, 20.5, -0.5, 1.2],
    userNs: [5, 5, 0, 1],
    systemNs: [14, 14.5, -0.5, 1],
    runqNs: [0, 0, 0, 0.1],
    blockedNs: [1, 1, 0, 0.1],
  });
  const words = accountWords(same, run);
  assert.match(words.reading ?? '', /^workers and procs spend the same time per op, within ±1\.20 µs/);
  assert.equal(words.advice, null);
  const aa = accountWords(same, { ...run, names: ['A', 'B'] });
  assert.match(aa.reading ?? '', /^A and B spend/);
});

test('more than a fifth left unexplained against the ratio is said', () => {
  const words = accountWords(account({ wallNs: [30, 20, 10, 1] }, { seen: stats(20_000, 2_000) }), run);
  assert.match(words.unexplained ?? '', /leaving 10\.0 µs \(50%\) unexplained: more than a fifth/);
  const close = accountWords(account({ wallNs: [30, 20, 10, 1] }, { seen: stats(11_000, 2_000) }), run);
  assert.doesNotMatch(close.unexplained ?? '', /more than a fifth/);
});

test('the regime: a cold heap per mode, and the published protocol cold by design', () => {
  const regime = {
    workers: { speedup: 1.9, firstFaults: 12, lastFaults: 3, state: 'warming', cells: 6, tenths: [] },
    procs: { speedup: 1.02, firstFaults: 0.1, lastFaults: 0.1, state: 'steady', cells: 6, tenths: [] },
  };
  const words = accountWords(account({ wallNs: [20, 20, 0, 1] }, { regime }), run);
  assert.match(
    words.regime ?? '',
    /workers still warming up \(a cold heap\): last tenth 1\.90× faster than the first, page faults per op 12\.00 → 3\.00/,
  );
  assert.match(words.regime ?? '', /procs steady/);
  // faster at the end without fewer page faults: warming up, but not said to be the heap
  const jit = { ...regime.workers, firstFaults: 0.1, lastFaults: 0.1 };
  const warm = accountWords(account({ wallNs: [20, 20, 0, 1] }, { regime: { workers: jit } }), run);
  assert.match(warm.regime ?? '', /workers still warming up: last tenth 1\.90× faster/);
  const published = accountWords(account({ wallNs: [20, 20, 0, 1] }, { regime }), { ...run, protocol: 'published' });
  assert.match(published.regime ?? '', /cold by design/);
});

test('a warmup until steady is said per mode, and the cap when it stopped workers still getting faster', () => {
  const regime = { procs: { speedup: 1.02, firstFaults: 0.1, lastFaults: 0.1, state: 'steady', cells: 6, tenths: [] } };
  const warmup = {
    workers: { ops: 12_345, seconds: 0.214, capped: 0, workers: 12 },
    procs: { ops: 9_000, seconds: 0.15, capped: 0, workers: 12 },
  };
  const words = accountWords(account({ wallNs: [20, 20, 0, 1] }, { regime, warmup }), run);
  assert.match(
    words.regime ?? '',
    /procs steady: .*; warmed up until the rate stopped trending, median per worker: workers 12,345 ops \(0\.21 s\), procs 9,000 ops \(0\.15 s\)$/,
  );
  const capped = { ...warmup, procs: { ...warmup.procs, capped: 3 } };
  // a user's task has no tenths, so no regime: the warmup is said alone
  const alone = accountWords(account({ wallNs: [20, 20, 0, 1] }, { warmup: capped }), run);
  assert.match(
    alone.regime ?? '',
    /^regime: warmed up until .*; the cap \(ten timed windows or 5 s\) ended the warmup of 3 of 12 in procs while they were still getting faster$/,
  );
  assert.equal(accountWords(account({ wallNs: [20, 20, 0, 1] }), run).regime, null, 'a fixed warmup: nothing to say');
});

test('the account table of a saved compare: a row per line, both modes and their difference, 80 columns', () => {
  const saved = JSON.parse(readFileSync(new URL('../fixtures/saved/compare-account.json', import.meta.url), 'utf8'));
  const table = accountTable(saved.account, ['workers', 'procs'], (mode) => mode);
  assert.deepEqual(table.head.slice(1), ['workers', 'procs', 'workers − procs']);
  const labels = table.rows.map((row) => row[0].trim());
  for (const label of [
    'wall, µs',
    'user, µs',
    'system, µs',
    'waiting for a CPU, µs',
    'blocked, µs',
    'minor page faults',
  ])
    assert.ok(labels.includes(label), label);
  assert.ok(table.rows.every((row) => row.length === 4 && row.slice(1).every((cell) => /^[−+]?\d/.test(cell))));
  const text = renderTerminal({ title: 't', tables: [table], notes: [] }, { width: 80 });
  assert.ok(text.split('\n').every((line) => [...line].length <= 80));
});
