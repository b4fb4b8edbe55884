import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSaved } from '../../../src/commands/index.js';
import { adviceOf } from '../../../src/commands/advise/advice.js';
import { adviceModel, adviceVerdictText } from '../../../src/commands/advise/model.js';
import { fixture } from '../../helpers.js';

// a 25 s advise of readfilesync at k=2: the baseline, TOP_PAD 64 MiB, jemalloc, reuse-buffer and
// readfilesync-into (which Node 20 cannot run)
const saved = /** @type {any} */ (loadSaved(fixture('saved/advise.json')));
const { document } = saved;

test('an advise file is a sweep of its candidates, with its ranking beside the points', () => {
  assert.equal(saved.kind.name, 'advise');
  assert.equal(document.command, 'advise');
  assert.equal(document.points.length, 5);
});

test('the ranking: the baseline first, then measured candidates by workers gain, then those without figures', () => {
  const { advice } = document;
  const names = advice.rows.map((/** @type {any} */ row) => row.name);
  assert.equal(names[0], 'baseline');
  assert.equal(names.at(-1), 'readfilesync-into');
  const measured = advice.rows.slice(1).filter((/** @type {any} */ row) => row.status === 'measured');
  const gains = measured.map((/** @type {any} */ row) => row.gain.workers.change);
  assert.deepEqual(
    gains,
    [...gains].sort((a, b) => b - a),
  );
  assert.ok(names.includes('processes instead of threads'));
  const unavailable = advice.rows.at(-1);
  assert.equal(unavailable.status, 'unavailable');
  assert.match(unavailable.why, /no buffer option/);
});

test('recomputed from the points, the ranking is the one saved: every figure comes from the rounds', () => {
  const candidates = document.advice.rows.filter((/** @type {any} */ row) => row.kind !== 'procs');
  const order = document.points.map((/** @type {any} */ point) =>
    candidates.find((/** @type {any} */ row) => row.id === point.id),
  );
  const again = adviceOf(document, order, {
    missing: document.advice.missing,
    skipped: document.advice.skipped,
  });
  // rows saved before a fix could apply to one mode alone are ranked by the workers' gain
  assert.ok(again.rows.every((row) => row.mode === 'workers'));
  assert.equal(again.bestProcs, null);
  assert.deepEqual(figuresOf(again), figuresOf(document.advice));
});

/**
 * What was measured in an advice, as it ranks the rows: verdicts and ranks aside (they are
 * read from these, with the rules of the version that wrote the file).
 * @param {any} advice
 */
function figuresOf(advice) {
  const change = (/** @type {any} */ one) => (one ? { change: one.change, ci95: one.ci95 } : null);
  return advice.rows.map((/** @type {any} */ row) => ({
    name: row.name,
    status: row.status,
    workers: change(row.gain.workers),
    procs: change(row.gain.procs),
    memory: change(row.memory),
    spread: row.spread,
  }));
}

test('verdicts are Holm-corrected over every comparison; ranks are ranges where intervals overlap', () => {
  const base = [100, 102, 98, 101, 99];
  // ten candidates: one clearly better, one a hair better (alone, its 95% interval clears 1)
  const points = [
    {
      id: 'p1',
      status: 'complete',
      rounds: base.map((v) => ({ workers: { throughput: v }, procs: { throughput: v } })),
    },
    ...Array.from({ length: 10 }, (_, i) => ({
      id: `p${i + 2}`,
      status: 'complete',
      rounds: base.map((v, r) => ({
        workers: { throughput: i === 0 ? v * 3 : i === 1 ? v * 1.035 + (r % 2) : v * (1 + ((r + i) % 3) * 0.01) },
        procs: { throughput: v },
      })),
    })),
  ];
  const candidates = points.map((point, i) => ({
    name: i === 0 ? 'baseline' : `c${i}`,
    kind: i === 0 ? 'baseline' : 'task',
    apply: '',
  }));
  // a sweep of them, as advise saves it: one Node, one variant, the task's own settings
  const setting = { task: 'json', file: { size: 1024, label: '1 KiB' }, k: 2, params: {}, config: { env: {} } };
  const sweep = {
    axes: { node: [{ version: 'v20.20.2' }], variant: [{ name: 'default' }], task: ['json'] },
    points: points.map((point) => ({
      ...setting,
      ...point,
      node: { version: 'v20.20.2' },
      variant: { name: point.id },
    })),
  };
  const advice = adviceOf(/** @type {any} */ (sweep), /** @type {any} */ (candidates), { missing: [], skipped: [] });
  const row = (/** @type {string} */ name) => advice.rows.find((one) => one.name === name);
  assert.equal(row('c1')?.verdict, 'better');
  assert.deepEqual(row('c1')?.rank, [1, 1]);
  const hair = row('c2');
  assert.ok(hair?.gain.workers?.ci95 && hair.gain.workers.ci95[0] > 1, 'alone, its interval lies above 1');
  assert.equal(hair?.verdict, 'unclear', 'one of eleven comparisons: not known');
  // the others overlap one another: each shares a range of places below the first
  const tied = advice.rows.filter((one) => one.rank && one.rank[0] !== one.rank[1]);
  assert.ok(tied.length >= 2);
  for (const one of tied) assert.ok(/** @type {number[]} */ (one.rank)[0] >= 2);
  assert.match(
    JSON.stringify(adviceModel(/** @type {any} */ ({ ...document, advice })).tables[0].rows),
    /"\d+-\d+\. (unclear|faster|hurts)"/,
  );
});

test('the best is the candidate of largest workers gain whose interval lies above 1; one that lies below hurts', () => {
  const advice = structuredClone(document.advice);
  assert.equal(advice.best, 'reuse-buffer');
  assert.match(
    adviceVerdictText(advice),
    /^best: reuse-buffer: workers 13\.08× the baseline’s throughput \(95% CI 10\.51-16\.27\)/,
  );
  // a candidate made to lose: its interval below 1
  const jemalloc = advice.rows.find((/** @type {any} */ row) => row.name === 'jemalloc');
  jemalloc.gain.workers = { change: 0.5, ci95: [0.4, 0.6], df: 10, method: '' };
  jemalloc.verdict = 'worse';
  const text = JSON.stringify(adviceModel({ ...document, advice }).tables[0].rows);
  assert.match(text, /"jemalloc","\d\. hurts"/);
  // none above 1: no best, and the sentence says why
  const none = { ...advice, best: null };
  assert.match(adviceVerdictText(none), /^no candidate’s workers throughput is known to beat the baseline’s/);
});

test("the published ranking stands beside readfilesync's, labelled with its source; the apply line follows the best", () => {
  const notes = adviceModel(document).notes.join('\n');
  assert.match(notes, /^apply it: openSync \+ readSync into a Buffer allocated once, instead of readFileSync$/m);
  assert.match(
    notes,
    /^published, not measured here: platformatic\/node-worker-mmap-lock-contention \(README\), "TL;DR — Mitigation Ranking"/m,
  );
  assert.match(notes, /^readfilesync-into: unavailable: /m);
});

test("a message's advise: fixes for threads alone ranked by the workers' gain, the serialization among the procs' fixes", () => {
  // a 100 s advise of a 64 KiB Buffer message at k=2: the baseline (copied, json serialization),
  // transfer and SharedArrayBuffer (threads alone), serialization advanced (processes alone)
  const { document: message } = /** @type {any} */ (loadSaved(fixture('saved/advise-message.json')));
  const { advice } = message;
  assert.deepEqual(
    advice.rows.map((/** @type {any} */ row) => [
      row.mode,
      row.status,
      Boolean(row.gain.workers),
      Boolean(row.gain.procs),
    ]),
    [
      ['workers', 'measured', true, true],
      ['workers', 'measured', true, false],
      ['workers', 'measured', true, false],
      ['workers', 'measured', true, false],
      ['procs', 'measured', false, true],
    ],
  );
  assert.equal(advice.rows.at(-1).name, 'serialization advanced');
  assert.equal(advice.bestProcs, 'serialization advanced');
  assert.ok(['transfer', 'SharedArrayBuffer'].includes(advice.best));
  assert.match(
    adviceVerdictText(advice),
    /; for processes: serialization advanced: procs \d+\.\d+× the baseline’s throughput \(95% CI [\d.]+-[\d.]+\)/,
  );
  const model = adviceModel(message);
  const readings = model.tables[0].rows.map((row) => row[1]);
  assert.deepEqual(readings.slice(-1), ['1. faster (procs)'], 'ranked among the fixes for processes');
  assert.equal(readings[1], '1. faster');
  assert.match(
    model.notes.join('\n'),
    /^apply serialization advanced: fork\(module, \{ serialization: 'advanced' \}\)/m,
  );
  // every figure again from the points
  const order = message.points.map((/** @type {any} */ point) =>
    advice.rows.find((/** @type {any} */ row) => row.id === point.id && row.kind !== 'procs'),
  );
  assert.deepEqual(
    figuresOf(adviceOf(message, order, { missing: advice.missing, skipped: advice.skipped })),
    figuresOf(advice),
  );
});

test('--for kept-memory ranks by what the app keeps (a difference: it can be 0), throughput beside it as the cost', () => {
  const base = [16, 17, 15, 16.5, 15.5];
  // c1 keeps far less; c2 keeps more; c3 about the same; all at some throughput
  const kept = [base, base.map((v) => v - 12), base.map((v) => v + 6), base.map((v, r) => v + (r % 2 ? 0.3 : -0.3))];
  const points = kept.map((values, i) => ({
    id: `p${i + 1}`,
    status: 'complete',
    rounds: values.map((v, r) => ({
      workers: { throughput: 100 + r + (i === 1 ? -10 : 0), workers: [{}, {}], end: endOf(v) },
      procs: { throughput: 120 + r, workers: [{}, {}], end: endOf(0.1) },
    })),
  }));
  const candidates = points.map((_, i) => ({
    name: i === 0 ? 'baseline' : `c${i}`,
    kind: i === 0 ? 'baseline' : 'glibc',
    apply: '',
  }));
  const sweep = {
    status: 'complete',
    axes: { node: [{ version: 'v20.20.2' }], variant: [{ name: 'default' }], task: ['readfilesync'] },
    points: points.map((point) => ({
      task: 'readfilesync',
      file: { size: 65536, label: '64 KiB' },
      k: 2,
      params: {},
      config: { env: {} },
      ...point,
      node: { version: 'v20.20.2' },
      variant: { name: point.id },
    })),
  };
  const advice = adviceOf(/** @type {any} */ (sweep), /** @type {any} */ (candidates), {
    missing: [],
    skipped: [],
    objective: 'kept-memory',
  });
  assert.equal(advice.for, 'kept-memory');
  const names = advice.rows.map((row) => row.name);
  // processes keep nothing: the most kept memory saved; then c1; c2 keeps more and comes last
  assert.deepEqual(names.slice(1, 3), ['processes instead of threads', 'c1']);
  assert.equal(names.at(-1), 'c2');
  const row = (/** @type {string} */ name) => /** @type {any} */ (advice.rows.find((one) => one.name === name));
  assert.equal(row('c1').score.workers.difference, true);
  assert.ok(Math.abs(row('c1').score.workers.change + 12) < 1e-9);
  assert.equal(row('c1').verdict, 'better');
  assert.equal(row('c2').verdict, 'worse');
  assert.equal(advice.best, 'processes instead of threads');
  // its throughput is still there: the cost of the fix
  assert.ok(row('c1').gain.workers.change < 1);
  const model = adviceModel(/** @type {any} */ ({ ...sweep, advice }));
  assert.match(model.title, /ranked by memory the app keeps after its workers end/);
  assert.deepEqual(model.tables[0].head.slice(0, 5), ['candidate', 'reading', 'kept', 'workers ×', 'procs ×']);
  assert.match(JSON.stringify(model.tables[0].rows), /"c1","\d\. less","−12\.0 ±[\d.]+ MiB","0\.9\d×/);
  assert.match(
    adviceVerdictText(advice),
    /^least memory the app keeps per ended worker: processes instead of threads: /,
  );
});

/** A cell's end: the app held 10 MiB before, and 10 + 2 × kept after its 2 workers ended. */
function endOf(/** @type {number} */ keptPerWorker) {
  const MiB = 2 ** 20;
  return {
    settleMs: 10,
    beforeBytes: 10 * MiB,
    cycles: [{ teardownNs: 5e6, anonBytes: (10 + 2 * keptPerWorker) * MiB }],
  };
}

test("where the baseline's trees fell in two states, the notes count each candidate's as slow against its own speed", async () => {
  const { slowAgainst } = await import('../../../src/stats/trees.js');
  const states = [
    { trees: 11, share: 11 / 16, rate: 68000, range: [60000, 76000], figures: {} },
    { trees: 5, share: 5 / 16, rate: 31000, range: [26000, 35000], figures: {} },
  ];
  const baseline = [...Array(11).fill(68000), ...Array(5).fill(31000)];
  assert.deepEqual(slowAgainst(baseline, /** @type {any} */ (states)), { slow: 5, trees: 16 });
  // a fix three times as fast, its trees alike: none as slow; one that keeps the split: two
  assert.deepEqual(slowAgainst([200000, 205000, 198000, 202000], /** @type {any} */ (states)), { slow: 0, trees: 4 });
  assert.deepEqual(slowAgainst([70000, 72000, 30000, 69000, 33000, 71000], /** @type {any} */ (states)), {
    slow: 2,
    trees: 6,
  });
  const [base, ...others] = document.points;
  const split = {
    ...document,
    points: [
      { ...base, workers: { ...base.workers, trees: { rates: baseline, states, stateOf: [], differ: true } } },
      ...others.map((/** @type {any} */ point, /** @type {number} */ i) => ({
        ...point,
        workers: point.workers && {
          ...point.workers,
          trees: { rates: i === 0 ? [70000, 71000, 69000] : [70000, 30000, 69000], states: [], stateOf: [] },
        },
      })),
    ],
  };
  const notes = adviceModel(split).notes.join('\n');
  assert.match(
    notes,
    /^fresh trees \(workers\): the baseline's fell in a slow state \(46% of the fast one's speed\) in 5 of 16; as slow against their own speed: none with [^;]+; some with .+ 1 of 3$/m,
  );
  assert.doesNotMatch(adviceModel(document).notes.join('\n'), /fresh trees/, 'a file from before trees: no note');
});
