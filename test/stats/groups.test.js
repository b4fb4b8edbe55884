import { test } from 'node:test';
import assert from 'node:assert/strict';
import { twoGroups } from '../../src/stats/groups.js';

// a fixed sequence of standard normal draws (Box-Muller on a linear congruential generator)
const normals = (/** @type {number} */ n, seed = 7) => {
  let state = seed;
  const uniform = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return (state + 1) / (2 ** 31 + 1);
  };
  return Array.from({ length: n }, () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()));
};

test('two clusters apart are told apart, each value to its own: 1 marks the upper group', () => {
  const values = [...normals(12, 1).map((x) => x * 0.1), ...normals(18, 2).map((x) => 3 + x * 0.1)];
  const groups = twoGroups(values, 3);
  assert.deepEqual(groups, [...Array(12).fill(0), ...Array(18).fill(1)]);
});

test('one normal sample is one group, at every seed tried', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) assert.equal(twoGroups(normals(50, seed), 5), null, `seed ${seed}`);
});

test('a group smaller than asked for, a constant sample, or too few values give no groups', () => {
  const outlier = [...normals(29, 3).map((x) => x * 0.1), 5];
  assert.equal(twoGroups(outlier, 3), null);
  assert.equal(twoGroups(Array(20).fill(1), 2), null);
  assert.equal(twoGroups([0, 0.1, 5], 2), null);
});
