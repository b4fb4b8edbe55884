// One run of each measuring path whose every case is a long test (test/long/pool.test.js,
// test/long/fault-round.test.js): compare through a pool, and compare with its fault round. What
// each does, never a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measured, quickMarked } from '../helpers.js';

test('--pool tinypool: every op of both modes goes through the pool, which the document names; nothing left', async () => {
  const result = await quickMarked(['--pool', 'tinypool']);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = measured(result.stdout);
  assert.equal(document.pool.name, 'tinypool');
  const rounds = document.rounds.filter((/** @type {any} */ round) => round.complete);
  assert.ok(rounds.length >= 1);
  for (const round of rounds)
    for (const mode of ['workers', 'procs']) {
      assert.equal(round[mode].totalOps, 2 * document.config.iterations, `${mode}: every op through the pool`);
      assert.ok(round[mode].pool.tasks >= 2, mode);
    }
});

test('--fault throw: after the measured rounds, a round per mode says what one failing worker took down', async () => {
  const result = await quickMarked(['--fault', 'throw']);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = measured(result.stdout);
  assert.equal(document.status, 'complete');
  assert.equal(document.fault.kind, 'throw');
  for (const mode of ['workers', 'procs']) {
    assert.equal(document.fault[mode].appSurvived, true, mode);
    assert.equal(document.fault[mode].workersLost, 1, mode);
  }
});
