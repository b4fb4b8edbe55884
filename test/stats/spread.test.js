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
