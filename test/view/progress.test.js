import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startProgress } from '../../src/view/progress.js';

/** A stream off a terminal that keeps its lines. */
const logged = () => {
  /** @type {string[]} */
  const lines = [];
  return {
    lines,
    stream: /** @type {any} */ ({ isTTY: false, write: (/** @type {string} */ text) => lines.push(text) }),
  };
};

test('off a terminal: a line every 10 s; a run on a budget gives what is left of it, the one bound it knows', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 0 });
  const { lines, stream } = logged();
  const progress = startProgress({ cells: 4, expectedSeconds: 20, budgetSeconds: 60, stream });
  assert.match(lines[0], /^mmapbench: 4 cells, about 20 s; Ctrl-C stops/);
  for (let cell = 1; cell <= 8; cell++) {
    t.mock.timers.tick(5_000);
    progress.tick({ label: `cell ${cell}` });
  }
  const after = lines.slice(1);
  // 5 s a cell: a line at cells 2, 4, 6 and 8, past the estimate of 4 cells as before it
  assert.deepEqual(after, [
    'mmapbench: 2 cells (cell 2), at most 50 s left\n',
    'mmapbench: 4 cells (cell 4), at most 40 s left\n',
    'mmapbench: 6 cells (cell 6), at most 30 s left\n',
    'mmapbench: 8 cells (cell 8), at most 20 s left\n',
  ]);
});

test('fixed rounds: cells of all and the time at the rate so far; past the estimate, no time claimed', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 0 });
  const { lines, stream } = logged();
  const progress = startProgress({ cells: 4, expectedSeconds: 20, stream });
  for (let cell = 1; cell <= 6; cell++) {
    t.mock.timers.tick(5_000);
    progress.tick({ label: `cell ${cell}` });
  }
  assert.deepEqual(lines.slice(1), [
    'mmapbench: 2/4 cells (cell 2), about 10 s left\n',
    'mmapbench: 4 cells (cell 4)\n',
    'mmapbench: 6 cells (cell 6)\n',
  ]);
});

test('a run shorter than 10 s prints nothing', () => {
  const { lines, stream } = logged();
  startProgress({ cells: 10, expectedSeconds: 5, stream }).tick({ label: 'x' });
  assert.deepEqual(lines, []);
});
