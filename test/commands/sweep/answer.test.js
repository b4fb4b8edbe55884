// sweep's default answer: the steady table, and beside it what fresh workers do at each point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSaved } from '../../../src/commands/index.js';
import { sweepModel } from '../../../src/commands/sweep/model.js';
import { fixture } from '../../helpers.js';

const documentOf = (/** @type {string} */ name) => loadSaved(fixture(`saved/${name}`)).document;

test("the answer has a table of fresh workers' first 2,000 ops per point, with their workers/procs and its interval", () => {
  // k=1,2 on 2 CPUs, 3 rounds of 0.1 s cells, each timing its warm-up
  const document = documentOf('sweep-ramp.json');
  const model = sweepModel(document, { answer: true });
  assert.deepEqual(
    model.tables.map((table) => table.head[1]),
    ['workers ops/s', 'first 2,000 ops: workers'],
  );
  const [, fresh] = model.tables;
  assert.deepEqual(
    fresh.rows.map((row) => row[0]),
    ['1', '2'],
  );
  // each point's modes' medians of their cells' first 2,000 ops, and the ratio from its rounds
  document.points.forEach((point, i) => {
    const median = (/** @type {'workers'|'procs'} */ mode) => {
      const values = point.rounds.map((round) => round[mode].ramp.firstThroughput).sort((a, b) => a - b);
      return `${Math.round(values[1]).toLocaleString('en-US')} ops/s`;
    };
    assert.deepEqual(fresh.rows[i].slice(1, 3), [median('workers'), median('procs')]);
    assert.match(fresh.rows[i][3], /^\d\.\d\d \(\d\.\d\d-\d\.\d\d\)$/);
  });
  // every other measure is --verbose's
  assert.ok(sweepModel(document).tables.length > 2);
  // a sweep from before the ramp has none
  assert.equal(sweepModel(documentOf('sweep.json'), { answer: true }).tables.length, 1);
});
