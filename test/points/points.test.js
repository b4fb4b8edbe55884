import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSaved } from '../../src/commands/index.js';
import { centreOf, figureOf, furtherMeasuresOf, valueOf } from '../../src/points/points.js';
import { pointsOf } from '../../src/saved/load.js';
import { MEASURES } from '../../src/points/measures.js';
import { summarize } from '../../src/stats/ratio.js';
import { fixture } from '../helpers.js';

const saved = (/** @type {string} */ name) => loadSaved(fixture(`saved/${name}`));

test('a compare, a sweep and a reproduce run give points alike: an id, a full name, per-round figures of every measure, the ratio', () => {
  for (const name of ['compare-tradeoff.json', 'sweep-tradeoff.json', 'reproduce.jsonl']) {
    const points = pointsOf(saved(name));
    assert.ok(points.length > 0, name);
    for (const point of points) {
      assert.equal(typeof point.id, 'string', name);
      assert.match(point.label, /k=\d+/, name);
      assert.deepEqual(
        Object.keys(point.perRound),
        MEASURES.map((measure) => measure.key),
        name,
      );
      assert.equal(point.throughput, point.perRound.throughput);
      // a ratio per complete round, and the ratio over them as the run (or the model) computed it
      assert.equal(point.ratios.length, point.ratio?.n ?? 0, `${name} ${point.label}`);
      // the geometric mean of the round ratios, by hand
      const byHand = Math.exp(point.ratios.reduce((sum, r) => sum + Math.log(r), 0) / point.ratios.length);
      if (point.ratio) assert.ok(Math.abs(point.ratio.geomean - byHand) < 1e-9, `${name} ${point.label}`);
    }
    assert.equal(new Set(points.map((point) => point.key)).size, points.length, `${name}: one key per point`);
  }
});

test("a compare's point carries its document's ratio, account, phases and seconds; a sweep's, its point's", () => {
  const compare = saved('compare-tradeoff.json');
  const [point] = pointsOf(compare);
  const [document] = /** @type {any} */ (compare).document.points;
  assert.equal(point.id, 'p1');
  assert.deepEqual(point.ratio, document.ratio);
  assert.deepEqual(point.phases, document.phases);
  assert.equal(point.seconds, document.seconds);
  assert.equal(point.label, 'readfilesync · med (64 KiB) · k=2');
  const sweep = /** @type {any} */ (saved('sweep-tradeoff.json'));
  const points = pointsOf(sweep);
  assert.deepEqual(
    points.map((one) => [one.id, one.ratio, one.seconds]),
    sweep.document.points.map((/** @type {any} */ one) => [one.id, one.ratio, one.seconds]),
  );
});

test("a reproduce run's points are its experiments' settings, named experiment · variant · k", () => {
  const points = pointsOf(saved('reproduce.jsonl'));
  for (const point of points) {
    assert.match(point.id, /^[^/]+\/[^/]+$/);
    assert.equal(point.label, `${point.id.replace('/', ' · ')} · k=2`);
    assert.equal(point.seconds, null);
  }
});

test('an audit has no points: the error names the file and what to pass instead', () => {
  assert.throws(
    () => pointsOf(saved('audit.json'), 'export'),
    /audit\.json is an audit .*; export compare, sweep or reproduce results/,
  );
});

// What a compare's document has at its top level that a sweep's has not: the A/A arm, and what
// a compare's run adds (its gate, its budget's shortfall, the step it once kept in words).
const COMPARE_OWN = ['aa', 'gate', 'shortBudget', 'next', 'resume', 'modules', 'warnings'];

test("a compare's document is laid out as a sweep's: the run's fields, the rounds' order, its one point", () => {
  const sweepKeys = Object.keys(saved('sweep-tradeoff.json').document);
  for (const name of ['compare-tradeoff.json', 'compare-spread.json', 'trace-compare.json', 'compare-aa.json']) {
    const { document } = /** @type {any} */ (saved(name));
    assert.deepEqual(
      Object.keys(document).filter((key) => !sweepKeys.includes(key) && !COMPARE_OWN.includes(key)),
      [],
      name,
    );
    assert.deepEqual(
      document.points.map((/** @type {{ id: string }} */ point) => point.id),
      ['p1'],
      name,
    );
    assert.deepEqual(
      document.order,
      document.points[0].rounds.map((/** @type {{ index: number }} */ round) => ({
        index: round.index,
        points: ['p1'],
      })),
      name,
    );
  }
});

test('figureOf reads a measure of a point as its run saved it: each mode, the ratio, the rounds', () => {
  const compare = saved('compare-tradeoff.json');
  const [point] = pointsOf(compare);
  const [document] = compare.document.points;
  for (const measure of MEASURES) {
    const figure = figureOf(measure, point);
    assert.equal(figure.workers, document.workers[measure.key] ?? null, measure.key);
    assert.equal(figure.procs, document.procs[measure.key] ?? null, measure.key);
    assert.equal(
      figure.ratio,
      measure.key === 'throughput' ? document.ratio : (document.measures?.[measure.key] ?? null),
    );
    assert.equal(figure.perRound, point.perRound[measure.key]);
  }
  // the further measures are those some mode has, in the order of MEASURES
  assert.deepEqual(
    furtherMeasuresOf([point]).map((measure) => measure.key),
    MEASURES.slice(1)
      .filter((measure) => document.workers[measure.key] || document.procs[measure.key])
      .map((measure) => measure.key),
  );
  assert.ok(furtherMeasuresOf([point]).length > 0);
  // a cell's figure: a finite number or null, never NaN
  const [throughput] = MEASURES;
  assert.equal(valueOf(throughput, { ...document.rounds[0].workers, throughput: NaN }), null);
  assert.equal(valueOf(throughput, null), null);
});

test("memory per added worker leaves out the app's own Buffers, and where nothing is left reads none, not 0 (round five, row 12)", async () => {
  const { MEASURES } = await import('../../src/points/measures.js');
  const added = MEASURES.find((measure) => measure.key === 'addedMemory');
  const MiB = 2 ** 20;
  const cell = (/** @type {number} */ buffersAdded) =>
    /** @type {any} */ ({
      workers: [{}, {}],
      memory: { anonBytes: 30 * MiB, anonymousBefore: 10 * MiB },
      main: { alone: null, during: null, buffersAdded },
    });
  assert.equal(added?.of(cell(0)), 10);
  assert.equal(added?.of(cell(4 * MiB)), 8, "the app's 4 MiB of Buffers are not the workers'");
  assert.equal(added?.of(cell(-3 * MiB)), 10, 'Buffers the app let go of are not added back');
  assert.equal(added?.of(cell(25 * MiB)), null);
  assert.match(String(added?.why?.(cell(25 * MiB))), /held no more anonymous memory than the app did before/);
});

test('issue 102: memory per added worker is read in the rounds that time no op; one that timed ops has none and says where it is read', async () => {
  const { harnessText } = await import('../../src/commands/compare/costs.js');
  const added = /** @type {import('../../src/points/measures.js').Measure} */ (
    MEASURES.find((measure) => measure.key === 'addedMemory')
  );
  const MiB = 2 ** 20;
  const cell = (/** @type {number} */ anon, /** @type {boolean} */ timedOps) =>
    /** @type {any} */ ({
      workers: [{}, {}],
      memory: { anonBytes: anon * MiB, anonymousBefore: 10 * MiB, ...(timedOps ? { timedOps: true } : {}) },
    });
  assert.equal(added.of(cell(30, false)), 10);
  assert.equal(added.of(cell(32, true)), null);
  assert.match(String(added.why?.(cell(32, true))), /rounds that time no op/);
  // --verbose's harness line sets the timed rounds' memory beside the figure, both of this run
  const round = (/** @type {number} */ anon, /** @type {boolean} */ timedOps) => ({
    complete: true,
    workers: cell(anon, timedOps),
    procs: cell(anon - 1, timedOps),
  });
  const text = harnessText(
    /** @type {any} */ ({ config: { k: 2, end: {} }, rounds: [round(30, false), round(32, true), round(30.4, false)] }),
  );
  assert.match(String(text), /workers 11\.0 against 10\.1 MiB, procs 10\.5 against 9\.6 MiB/);
});

test("issue 102: where a run had plain trees, memory per added worker is theirs (an app without mmapbench's runner); the cells' is shown apart, and diff sets like beside like", async () => {
  // the run's one point with the run around it, as compare's readers take it
  const { viewPoints: measurePoints, pointView } = await import('../../src/document/points-of.js');
  const { plainShare } = await import('../../src/stats/trees.js');
  const { harnessText } = await import('../../src/commands/compare/costs.js');
  const { cellsFigureOf } = await import('../../src/points/points.js');
  const { diffDocument } = await import('../../src/commands/diff/document.js');
  const added = /** @type {import('../../src/points/measures.js').Measure} */ (
    MEASURES.find((measure) => measure.key === 'addedMemory')
  );
  const document = /** @type {any} */ (pointView(saved('compare-plain-trees.json').document));
  // the kept run's plain trees, as a run that read their memory keeps them
  const read = structuredClone(document);
  let tree = 0;
  for (const round of read.rounds)
    if (round.plain) {
      round.plain.workers.addedMiB = 40 + (tree++ % 3);
      round.plain.procs.addedMiB = 40;
    }
  for (const mode of /** @type {const} */ (['workers', 'procs']))
    read[mode].plain = plainShare(read.rounds.flatMap((/** @type {any} */ round) => round.plain?.[mode] ?? []));
  assert.deepEqual(read.workers.plain.addedMemory.samples, [40, 41, 42, 40, 41, 42]);
  const [point] = measurePoints(read);
  const figure = figureOf(added, point);
  assert.deepEqual(figure.workers, read.workers.plain.addedMemory);
  assert.deepEqual(figure.perRound, { workers: [40, 41, 42, 40, 41, 42], procs: [40, 40, 40, 40, 40, 40] });
  // workers/procs over the rounds whose two plain trees read it
  assert.equal(figure.ratio?.n, 6);
  assert.ok(Math.abs(/** @type {number} */ (figure.ratio?.median) - 41 / 40) < 1e-9);
  // the cells' figure stays, apart
  const cells = cellsFigureOf(added, point);
  assert.deepEqual(cells.workers, document.workers.addedMemory);
  assert.deepEqual(cells.ratio, document.measures.addedMemory);
  // a file whose plain trees read no memory (from before): the cells'
  const [old] = measurePoints(document);
  assert.deepEqual(figureOf(added, old), cellsFigureOf(added, old));
  // --verbose says whose the figure is, and the cells' beside it
  assert.match(
    String(harnessText(read)),
    /is the plain app's, its trees beside the cells; .*: workers 41\.0 MiB over 6 trees, cells 42\.6 \(\+1\.6\); procs 40\.0 MiB over 6 trees, cells 41\.[0-9] \(\+1\.[0-9]\)/,
  );
  // diff: a run with the plain app's figure beside one without reads the cells' of both
  const run = (/** @type {any} */ doc, /** @type {string} */ path) => ({
    run: { path, mmapbench: doc.mmapbench, command: 'compare' },
    points: measurePoints(doc),
    facts: {},
  });
  const change = (/** @type {any} */ base, /** @type {any} */ next) =>
    /** @type {any} */ (diffDocument(/** @type {any} */ (run(base, 'a')), /** @type {any} */ (run(next, 'b'))))
      .points[0].measures.addedMemory.workers.change;
  // the same cells both sides: no change, where the plain app's 41 against the cells' 42.6 would be one
  assert.equal(change(document, read), 1);
  assert.equal(change(read, document), 1);
  // two runs with plain trees: the plain app's against the plain app's
  const less = structuredClone(read);
  for (const round of less.rounds) if (round.plain) round.plain.workers.addedMiB /= 2;
  assert.ok(Math.abs(change(read, less) - 0.5) < 1e-9);
});

test('a mode figure read as a difference is its mean over the rounds (what the verdict differences), any other its median', () => {
  const kept = /** @type {import('../../src/points/measures.js').Measure} */ (
    MEASURES.find((measure) => measure.key === 'keptMemory')
  );
  const startUp = /** @type {import('../../src/points/measures.js').Measure} */ (
    MEASURES.find((measure) => measure.key === 'readyMs')
  );
  // kept memory falls on levels: a median of [16, 16, 25, 25, 31] says 25, the mean 22.6
  const levels = summarize([16, 16, 25, 25, 31]);
  assert.equal(centreOf(levels, kept), levels.mean);
  assert.equal(centreOf(levels, startUp), 25);
  assert.equal(centreOf(levels), 25);
  assert.equal(centreOf({ ...levels, pooled: 7 }, kept), 7);
});
