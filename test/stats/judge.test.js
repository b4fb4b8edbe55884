// The heap judge's statistics (scripts/heap-judge.js): a share's Wilson interval, Fisher's exact
// test of two shares, and the rule a tree's state is read by, on known tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fisher, slowTree, wilson } from '../../scripts/heap-judge.js';
import { SLOW_FAULTS } from '../../src/stats/trees.js';

test("Fisher's exact test, two-sided: equal shares 1, the issue's 1 of 32 against 15 of 32 far below 0.001, symmetric", () => {
  assert.equal(fisher(5, 10, 5, 10), 1);
  assert.ok(fisher(1, 32, 15, 32) < 0.001);
  assert.ok(Math.abs(fisher(1, 32, 15, 32) - fisher(15, 32, 1, 32)) < 1e-12);
  // [[3, 7], [9, 1]]: 0.0198 (R's fisher.test)
  assert.ok(Math.abs(fisher(3, 10, 9, 10) - 0.0198) < 0.0005);
});

test("Wilson's 95% interval of a share: inside [0, 1], about its share, and 0 of 40 up to 9%", () => {
  const [low, high] = wilson(0, 40);
  assert.equal(low, 0);
  assert.ok(Math.abs(high - 0.0876) < 0.001);
  const [a, b] = wilson(19, 40);
  assert.ok(a < 19 / 40 && 19 / 40 < b && a > 0.3 && b < 0.65);
});

test("a tree is slow above SLOW_FAULTS page faults per op, the answer's rule too", () => {
  assert.equal(slowTree({ ops: 12000, faults: 12000 * SLOW_FAULTS }), false);
  assert.equal(slowTree({ ops: 12000, faults: 12000 * SLOW_FAULTS + 1 }), true);
  assert.equal(slowTree({ ops: 12000, faults: 0 }), false);
});
