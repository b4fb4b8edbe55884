import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountChange } from '../../src/commands/diff/document.js';

test('diff: the part of the difference that changed most between two runs, with page faults beside it', () => {
  const lines = (diffs) => ({
    lines: Object.entries(diffs).map(([key, [mean, half]]) => ({
      key,
      modes: {},
      diff: { mean, ci95: [mean - half, mean + half], n: 6 },
    })),
  });
  const base = lines({
    wallNs: [1000, 500],
    userNs: [0, 300],
    systemNs: [1000, 300],
    cpuNs: [1000, 400],
    runqNs: [0, 50],
    blockedNs: [0, 50],
    minflt: [0.1, 0.2],
  });
  const next = lines({
    wallNs: [9000, 500],
    userNs: [500, 300],
    systemNs: [8500, 300],
    cpuNs: [9000, 400],
    runqNs: [0, 50],
    blockedNs: [0, 50],
    minflt: [8, 0.2],
  });
  const change = accountChange(/** @type {any} */ (base), /** @type {any} */ (next));
  assert.equal(
    change.reading,
    'workers − procs grew by 7.50 µs per op of system time (±0.42), page faults per op +7.90',
  );
  assert.equal(change.parts.find((part) => part.key === 'wallNs')?.change, 8000);
  assert.equal(accountChange(/** @type {any} */ (base), /** @type {any} */ (base)).reading, null);
});
