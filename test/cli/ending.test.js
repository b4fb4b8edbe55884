// What the app keeps when its workers end: each cell's parent ends its K workers as an app would,
// times the teardown and reads its memory after, once per cycle. Structure and behaviour only:
// no test asserts a size or a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, measured } from '../helpers.js';

test('each cell ends its workers and reads what the app kept, once per --cycles; the rows, the verdict and the recycling note say it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-ending-'));
  const result = await cli([
    'compare',
    '--quick',
    '--main',
    'off',
    '--cycles',
    '3',
    '--settle',
    '10',
    '--json',
    '--out',
    out,
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = measured(result.stdout);
  assert.deepEqual(document.config.end, { settleMs: 10, cycles: 3 });
  for (const round of document.rounds)
    for (const mode of ['workers', 'procs']) {
      const { end } = round[mode];
      assert.equal(end.settleMs, 10);
      assert.equal(typeof end.beforeBytes, 'number', `round ${round.index} ${mode}`);
      assert.equal(end.cycles.length, 3, `round ${round.index} ${mode}`);
      for (const cycle of end.cycles) {
        assert.ok(cycle.teardownNs > 0);
        assert.equal(typeof cycle.anonBytes, 'number');
      }
    }
  for (const key of ['keptMemory', 'teardownMs', 'keptLastMemory', 'keptGrowthPerCycle'])
    for (const mode of ['workers', 'procs'])
      assert.equal(typeof document[mode][key]?.median, 'number', `${mode} ${key}`);
  // a child keeps nothing: the memory kept is contrasted as workers − procs, teardown as a ratio
  assert.equal(document.measures.keptMemory.difference, true);
  assert.equal(document.measures.teardownMs.difference, undefined);

  const file = join(out, readdirSync(out).find((name) => name.endsWith('.json')) ?? '');
  const text = (await cli(['report', file])).stdout;
  assert.match(text, /^│ kept after end +│ +−?[\d.]+ MiB │ +−?[\d.]+ MiB │ +[+−]?[\d.]+ MiB │/m);
  assert.match(text, /^│ growth\/cycle +│ +−?[\d.]+ MiB │/m);
  // --verbose: the teardown row, the harness's own share, with the ops this run timed
  const full = (await cli(['report', file, '--verbose'])).stdout;
  assert.match(full, /^│ teardown +│ +[\d.]+ ms │ +[\d.]+ ms │/m);
  const verbose = full.replace(/\s+/g, ' ');
  assert.match(
    verbose,
    // the timed rounds' memory beside the figure, both of this run (issue 102)
    / harness: memory per added worker is read in the rounds whose workers time no op \(the first complete round, the third, ...\); those that timed ops held, a worker \(median\): workers [\d.]+ against [\d.]+ MiB, procs [\d.]+ against [\d.]+ MiB; for reference, on reuse-buffer /,
  );
  assert.match(
    verbose,
    / recycling \(3 cycles a cell\), kept per worker, first → last, and mean growth a cycle: workers −?[\d.]+ → −?[\d.]+ MiB, [+−][\d.]+/,
  );
});

test('--cycles and --settle out of range are usage errors (exit 2) naming the option', async () => {
  for (const [args, words] of [
    [['--cycles', '0'], '--cycles 0 is invalid: it must be a whole number from 1 to 64'],
    [['--settle', '-1'], '--settle -1 is invalid: it must be a number of ms from 0 to 60000'],
  ]) {
    const result = await cli(['compare', '--quick', '--no-save', ...args]);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.equal(result.stderr.trim().split('\n').at(-1), `mmapbench: ${words}`);
  }
});
