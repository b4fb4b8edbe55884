// The fresh trees of one mode summarized, on synthetic trees: one state, two states apart, a lone
// tree far off, trees that differ no more than their windows do, and what goes with a slow state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jstat from 'jstat';
import { SLOW_FAULTS, treesOf } from '../../src/stats/trees.js';

/**
 * A tree's cell: its rate, its window's two halves at `first` and `second` times that rate, and
 * its page faults per op.
 * @param {number} rate @param {{ first?: number, second?: number, faults?: number }} [shape]
 */
function tree(rate, { first = 1, second = 1, faults = 1 } = {}) {
  const ns = 1e9;
  const slice = (/** @type {number} */ scale) => ({ ops: (rate * scale * ns) / 2e9, ns: ns / 2, minflt: null });
  const ops = rate;
  return /** @type {any} */ ({
    throughput: rate,
    account: { ops, minflt: faults * ops, systemNs: 100 * ops, slices: [slice(first), slice(second)] },
  });
}

/**
 * `n` trees whose log rates lie at a normal's quantiles around `rate` (sd `spread`), in a shuffled
 * order, each window's halves ±`halves` apart.
 */
const around = (/** @type {number} */ rate, /** @type {number} */ n, spread = 0.04, halves = 0.03, faults = 1) =>
  Array.from({ length: n }, (_, i) => {
    const q = jstat.normal.inv((((i * 7) % n) + 0.5) / n, 0, 1);
    const half = halves * (i % 2 ? 1 : -1);
    return tree(rate * Math.exp(spread * q), { first: 1 - half, second: 1 + half, faults });
  });

test('trees alike: one state holding all of them, and no difference beyond their windows', () => {
  const trees = /** @type {import('../../src/stats/trees.js').Trees} */ (treesOf(around(70000, 16, 0.01, 0.03)));
  assert.equal(trees.rates.length, 16);
  assert.equal(trees.states.length, 1);
  assert.equal(trees.states[0].trees, 16);
  assert.equal(trees.states[0].share, 1);
  assert.equal(trees.differ, false, 'the trees spread no more than a window does inside one');
  assert.deepEqual(trees.outliers, []);
  assert.equal(trees.throughout, null);
});

test('trees in two states: the fast first, each its share, rate and page faults; the slow slow throughout', () => {
  const cells = [...around(70000, 11, 0.03, 0.02, 1.1), ...around(32000, 5, 0.04, 0.02, 2.4)];
  const trees = /** @type {import('../../src/stats/trees.js').Trees} */ (treesOf(cells));
  assert.equal(trees.states.length, 2);
  const [fast, slow] = trees.states;
  assert.deepEqual([fast.trees, slow.trees], [11, 5]);
  assert.equal(slow.share, 5 / 16);
  assert.ok(fast.rate > 60000 && slow.rate < 40000);
  assert.ok(Math.abs(fast.figures.minflt - 1.1) < 1e-9 && Math.abs(slow.figures.minflt - 2.4) < 1e-9);
  assert.equal(trees.differ, true);
  assert.equal(trees.throughout, true);
  assert.deepEqual(trees.stateOf, [...Array(11).fill(0), ...Array(5).fill(1)], 'each tree its state');
  // a slow tree whose second half ran fast was not slow for its whole window
  const late = [...cells.slice(0, 15), tree(32000, { first: 0.4, second: 2 })];
  assert.equal(/** @type {any} */ (treesOf(late)).throughout, false);
});

test('one tree far from the rest is an outlier, not a state', () => {
  const cells = [...around(70000, 15, 0.02), tree(20000)];
  const trees = /** @type {import('../../src/stats/trees.js').Trees} */ (treesOf(cells));
  assert.equal(trees.states.length, 1);
  assert.deepEqual(trees.outliers, [15]);
});

test('fewer than 10 trees are not told apart into states; no windows, no test of them', () => {
  const few = [...around(70000, 5), ...around(32000, 4)];
  assert.equal(/** @type {any} */ (treesOf(few)).states.length, 1);
  const bare = around(70000, 12).map((cell) => ({ ...cell, account: undefined }));
  const trees = /** @type {import('../../src/stats/trees.js').Trees} */ (treesOf(bare));
  assert.equal(trees.windowSd, null);
  assert.equal(trees.differ, null);
  assert.deepEqual(trees.states[0].figures, {});
  assert.equal(treesOf([]), null);
});

test("the answer's line: said where a mode's trees differ by more than their windows, each mode's states, and the ratio two ways where they split", async () => {
  const { treesText } = await import('../../src/document/spread-words.js');
  const split = /** @type {any} */ (
    treesOf([...around(70000, 11, 0.03, 0.02, 1.1), ...around(32000, 5, 0.04, 0.02, 2.4)])
  );
  const alike = /** @type {any} */ (treesOf(around(60000, 16, 0.01, 0.03)));
  const doc = (/** @type {any} */ workers, /** @type {any} */ procs, geomean = 0.8) =>
    /** @type {any} */ ({
      workers: { throughput: { median: 68000 }, trees: workers },
      procs: { throughput: { median: 60000 }, trees: procs },
      ratio: { geomean },
    });
  const line = /** @type {string} */ (treesText(doc(split, alike)));
  assert.match(
    line,
    /^fresh trees: workers 5 of 16 ran at \d+% of the others' speed \([\d,]+ against [\d,]+ ops\/s\) for their whole window, at 2\.40 page faults per op against 1\.10; procs one state \([\d,]+-[\d,]+ ops\/s\), the trees no further apart than their windows; w\/p 0\.80 is what fresh trees get on average, 1\.13 the typical trees' /,
  );
  assert.match(
    line,
    /; the slow trees' extra page faults are the heap's, which /,
    'what removes them, as the account says it',
  );
  assert.doesNotMatch(
    /** @type {string} */ (treesText(doc(split, alike, 1.12))),
    /typical/,
    'the two ratios alike: one',
  );
  assert.equal(treesText(doc(alike, alike)), null, 'no mode whose trees differ: no line');
  // trees that differ but in no two states: the ranges in one clause
  const spread = /** @type {any} */ ({ ...alike, differ: true });
  assert.match(
    /** @type {string} */ (treesText(doc(spread, alike))),
    /^fresh trees: workers [\d,]+-[\d,]+ ops\/s, procs [\d,]+-[\d,]+ ops\/s, workers further apart than the windows inside them, in no two states$/,
  );
  assert.match(/** @type {string} */ (treesText(doc(spread, spread))), /, each further apart than the windows/);
  assert.equal(treesText({ workers: { throughput: { median: 1 } } }), null, 'a file from before trees');
});

test('traced trees that split: the line adds what the trace counted per op in each state', async () => {
  const { treesText } = await import('../../src/document/spread-words.js');
  const cells = [...around(70000, 11, 0.03, 0.02), ...around(32000, 5, 0.04, 0.02)];
  // the slow trees take mmap_lock for write under mprotect four times as often, and wait longer
  const perOp = (/** @type {any} */ cell) =>
    cell.throughput < 50000 ? { mprotect: 0.8, lockWaitNs: 120 } : { mprotect: 0.2, lockWaitNs: 30 };
  const traced = treesOf(cells, perOp);
  const split = treesOf(cells);
  const line = treesText(
    /** @type {any} */ ({
      workers: { throughput: { median: 68000 }, trees: split },
      procs: { throughput: { median: 60000 }, trees: split },
      ratio: { geomean: 1.1 },
      trace: { modes: { workers: { trees: traced } } },
    }),
  );
  assert.match(
    /** @type {string} */ (line),
    /; traced workers 5 of 16 slow \([\d,]+ against [\d,]+ ops\/s\); per op, mmap_lock taken for write under mprotect 0\.80, 120 ns waited for it, against 0\.20, 30 ns/,
  );
});

test("issue 102: where every tree counted its page faults, a tree's state is read from them, the judge's rule: slow above 1 an op", () => {
  // rates that overlap (fast trees 50-80k, slow 30-55k): by rates alone no two groups stand out
  const fast = around(62000, 10, 0.15, 0.03, 0.02);
  const slow = around(42000, 6, 0.15, 0.03, 9.6);
  const trees = /** @type {import('../../src/stats/trees.js').Trees} */ (treesOf([...fast, ...slow]));
  assert.equal(SLOW_FAULTS, 1);
  assert.equal(trees.states.length, 2);
  assert.deepEqual(
    trees.states.map((state) => state.trees),
    [10, 6],
  );
  assert.deepEqual(trees.stateOf, [...fast.map(() => 0), ...slow.map(() => 1)]);
  assert.ok(trees.states[1].figures.minflt > SLOW_FAULTS && trees.states[0].figures.minflt <= SLOW_FAULTS);
  // one slow tree of 16 is no state of its own (a tenth, and two, at least)
  const one = /** @type {import('../../src/stats/trees.js').Trees} */ (
    treesOf([...around(62000, 15, 0.01, 0.03, 0.02), tree(30000, { faults: 9 })])
  );
  assert.equal(one.states.length, 1);
  // a tree at exactly one fault an op keeps its heap
  const edge = /** @type {import('../../src/stats/trees.js').Trees} */ (
    treesOf([...fast, ...around(62000, 6, 0.15, 0.03, 1)])
  );
  assert.equal(edge.states.length, 1);
});

test("issue 102: a plain tree is slow by the cells' rule, above SLOW_FAULTS page faults per op; its share with a Wilson interval", async () => {
  const { plainShare, wilson } = await import('../../src/stats/trees.js');
  const tree = (/** @type {number} */ perOp) => ({
    ops: 1000,
    minflt: Math.round(perOp * 1000),
    throughput: 1,
    warmup: 0,
  });
  const share = /** @type {NonNullable<ReturnType<typeof plainShare>>} */ (
    plainShare([tree(0.02), tree(SLOW_FAULTS), tree(SLOW_FAULTS + 0.001), tree(5.2)])
  );
  // at the threshold is fast, as a cell's state reads it
  assert.equal(share.slow, 2);
  assert.equal(share.trees, 4);
  assert.deepEqual(share.faultsPerOp, [0.02, 1, 1.001, 5.2]);
  assert.deepEqual(share.ci95, wilson(2, 4));
  // trees that read no memory (a file from before, or /proc that did not say) have no figure of it
  assert.equal(share.addedMemory, undefined);
  const withMemory = plainShare([{ ...tree(0.02), addedMiB: 9 }, tree(0.02), { ...tree(5), addedMiB: 8 }]);
  assert.deepEqual(withMemory?.addedMemory?.samples, [9, 8]);
  assert.equal(withMemory?.addedMemory?.median, 8.5);
  // a window of no ops says nothing; none at all, no share
  assert.equal(plainShare([{ ops: 0, minflt: 0, throughput: 0, warmup: 0 }]), null);
  // Wilson's interval: inside [0, 1], around the share, and [0, 1] of nothing
  const [low, high] = wilson(1, 8);
  assert.ok(low > 0 && low < 1 / 8 && high > 1 / 8 && high < 1);
  assert.deepEqual(wilson(0, 0), [0, 1]);
  assert.equal(wilson(0, 10)[0], 0);
  assert.ok(Math.abs(wilson(0, 10)[1] - 0.2775) < 1e-3);
});
