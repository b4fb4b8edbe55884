// Each experiment's claims decided from constructed cells: the verdict follows the data, and an
// experiment with nothing measured says so instead of deciding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExperimentData } from '../../src/reproduce/data.js';
import { EXPERIMENTS, modesOf } from '../../src/reproduce/experiments.js';
import { TABLES } from '../../src/reference/published.js';

const ctx = { jemalloc: { path: '/lib/libjemalloc.so.2' }, thp: { why: null } };
const byName = Object.fromEntries(EXPERIMENTS.map((e) => [e.name, e]));
const jitter = [0.98, 1.02, 1.0, 0.99, 1.01, 1.0];

/** Cells for `rounds` rounds where throughput(variant, mode) is `rate(variant, mode)` with a little noise. */
function cells(experiment, rate, rounds = 6) {
  const out = [];
  for (let round = 1; round <= rounds; round++) {
    for (const variant of experiment.variants(ctx)) {
      for (const mode of modesOf(variant))
        out.push({
          variant: variant.id,
          round,
          mode,
          cell: { throughput: rate(variant, mode) * jitter[(round + mode.length) % jitter.length] },
        });
    }
  }
  return out;
}

const verdicts = (name, rate) =>
  byName[name].verdicts(new ExperimentData(cells(byName[name], rate))).map((v) => v.verdict);

test('the ten experiments of the issue, each with its published table, claim and variants', () => {
  assert.deepEqual(
    EXPERIMENTS.map((e) => e.name),
    ['gap', 'arena', 'mmap-threshold', 'jemalloc', 'mmap-max', 'thp', 'pool-size', 'pool-grid', 'reuse', 'async'],
  );
  for (const experiment of EXPERIMENTS) {
    assert.equal(experiment.claim, TABLES[experiment.name].claim);
    assert.match(experiment.source, /Hypothesis|step/);
    const ids = experiment.variants(ctx).map((v) => v.id);
    assert.equal(new Set(ids).size, ids.length, `${experiment.name}: variant ids are unique`);
  }
  assert.equal(byName['pool-grid'].variants(ctx).length, 7 * 7);
  assert.deepEqual(
    byName.thp.variants(ctx).map((v) => v.thp),
    ['always', 'madvise', 'never'],
  );
  assert.equal(byName.jemalloc.variants(ctx)[1].env.LD_PRELOAD, '/lib/libjemalloc.so.2');
});

test('with nothing measured every claim is inconclusive and says so', () => {
  for (const experiment of EXPERIMENTS) {
    for (const v of experiment.verdicts(new ExperimentData([]))) {
      assert.equal(v.verdict, 'inconclusive', `${experiment.name}: ${v.claim}`);
      assert.match(v.text, /no round measured both sides yet/);
    }
  }
});

test('gap: procs 1.7x faster holds both claims; procs 1.2x faster holds only the first; workers faster holds neither', () => {
  assert.deepEqual(
    verdicts('gap', (_, mode) => (mode === 'workers' ? 60 : 100)),
    ['holds', 'holds'],
  );
  assert.deepEqual(
    verdicts('gap', (_, mode) => (mode === 'workers' ? 83 : 100)),
    ['holds', 'does not hold'],
  );
  assert.deepEqual(
    verdicts('gap', (_, mode) => (mode === 'workers' ? 120 : 100)),
    ['does not hold', 'does not hold'],
  );
});

test('mmap-threshold: the ratio falling with the threshold holds; an unchanged ratio does not', () => {
  const collapse = (variant, mode) => (mode === 'procs' ? 100 : variant.id === 'default' ? 55 : 33);
  assert.deepEqual(verdicts('mmap-threshold', collapse), ['holds', 'holds']);
  assert.equal(
    verdicts('mmap-threshold', (_, mode) => (mode === 'procs' ? 100 : 60))[0],
    'inconclusive',
    'an unchanged ratio sits on the threshold',
  );
  assert.equal(
    verdicts('mmap-threshold', (variant, mode) => (mode === 'procs' ? 100 : variant.id === 'default' ? 50 : 80))[0],
    'does not hold',
  );
});

test('thp: modes within 10% of madvise hold; a 30% drop in one mode does not hold', () => {
  assert.deepEqual(
    verdicts('thp', () => 100),
    ['holds'],
  );
  assert.deepEqual(
    verdicts('thp', (variant) => (variant.id === 'never' ? 70 : 100)),
    ['does not hold'],
  );
});

test('pool-grid: a 256k pool winning at multi-KiB sizes and flat at 1 MiB holds all three claims', () => {
  const rate = (variant) =>
    variant.grid.column === '256k' &&
    variant.grid.row !== '1m' &&
    variant.grid.row !== '512' &&
    variant.grid.row !== '2k'
      ? 130
      : 100;
  assert.deepEqual(verdicts('pool-grid', rate), ['holds', 'holds', 'holds']);
  const regress = (variant) => (variant.grid.column === '256k' ? 70 : 100);
  assert.deepEqual(verdicts('pool-grid', regress), ['does not hold', 'does not hold', 'does not hold']);
});

test('a round missing one side is left out of that ratio, not counted as zero', () => {
  const experiment = byName.gap;
  const some = cells(experiment, (_, mode) => (mode === 'workers' ? 60 : 100)).filter(
    (c) => !(c.round === 3 && c.mode === 'procs'),
  );
  const data = new ExperimentData(some);
  assert.equal(data.ratio('default').n, 5);
  assert.equal(data.median('default', 'workers') > 0, true);
});
