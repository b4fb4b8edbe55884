import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spreadAttribution } from '../../src/stats/spread.js';

/** A cell whose throughput and account are given per op. */
const cell = (throughput, { minflt = 0, systemNs = 1000, runqNs = 0, gcNs = 0 } = {}) => {
  const ops = 1000;
  const wallNs = (1e9 / throughput) * ops;
  return {
    throughput,
    account: {
      ops,
      wallNs,
      cpuNs: systemNs * ops + 500 * ops,
      runqNs: runqNs * ops,
      systemNs: systemNs * ops,
      minflt: minflt * ops,
      gcNs: gcNs * ops,
    },
  };
};

test('the figure the cells slow down with takes the spread, the slower way; one that does not vary takes none', () => {
  // faults per op set each cell's speed; GC is the same in every cell
  const cells = [0.05, 8, 0.1, 7, 0.02, 9, 0.08].map((faults) => cell(42000 / (1 + faults), { minflt: faults }));
  const found = spreadAttribution(cells);
  assert.equal(found.cells, 7);
  assert.ok(found.spread > 0.5);
  const [top] = found.figures;
  assert.equal(top.key, 'minflt');
  assert.equal(top.direction, 'slower');
  assert.ok(top.share > 0.9, `share ${top.share}`);
  assert.equal(
    found.figures.find((figure) => figure.key === 'gcNs'),
    undefined,
    'GC did not vary',
  );
});

test('too few cells, or cells without an account, say nothing', () => {
  assert.equal(spreadAttribution([1, 2, 3, 4].map((x) => cell(1000 * x, { minflt: x }))), null);
  assert.equal(spreadAttribution([1, 2, 3, 4, 5, 6].map((x) => ({ throughput: 1000 * x }))), null);
});

test('cells that run in two speeds, each at its own page faults, fall in two groups: the faster first, with its figures', () => {
  // 6 cells near 41k ops/s at 0.05 faults per op, 8 near 10k at 8, each with a little noise
  const fast = [41000, 42500, 40200, 43100, 41800, 42000].map((t, i) => cell(t, { minflt: 0.04 + i * 0.005 }));
  const slow = [9800, 10400, 9500, 10900, 10100, 9900, 10300, 9700].map((t, i) => cell(t, { minflt: 7.5 + i * 0.2 }));
  const found = spreadAttribution([...fast, ...slow]);
  assert.equal(found.groups?.by, 'throughput');
  const [one, other] = found.groups.groups;
  assert.deepEqual([one.cells, other.cells], [6, 8]);
  assert.ok(one.throughput > 40000 && other.throughput < 11000);
  assert.ok(one.figures.minflt < 0.1 && other.figures.minflt > 7);
});

test('cells spread over one range of speeds, or too few of them, fall in no groups', () => {
  const even = Array.from({ length: 20 }, (_, i) => cell(20000 + i * 500, { minflt: 1 + i * 0.01 }));
  assert.equal(spreadAttribution(even).groups, null);
  // two speeds apart, but 9 cells: too few to tell groups from chance
  const few = [41000, 42000, 41500, 40800, 10000, 10200, 9900, 10100, 10050].map((t) => cell(t));
  assert.equal(spreadAttribution(few).groups, null);
});
