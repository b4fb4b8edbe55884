// A worker the app cannot end: the cell fails with one line that names it, and nothing is left;
// and --cycles as a sweep's axis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, processesMarked, uniqueMark } from '../helpers.js';

test('a child that ignores SIGTERM fails the run in one line naming the end (exit 1), no process left', async () => {
  const mark = uniqueMark();
  const result = await cli([
    'compare',
    '--quick',
    '--no-save',
    '--main',
    'off',
    '--task',
    fixture('ignores-sigterm.mjs'),
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
  ]);
  assert.equal(result.exitCode, 1, result.stderr);
  assert.equal(
    result.stderr.trim().split('\n').at(-1),
    'mmapbench: the procs parent process could not end its workers as an app would: worker 0 had not exited 5 s after it was ended (task ignores-sigterm); a task must let its thread or process exit when an app ends it (worker.terminate(), SIGTERM), as pools do',
  );
  assert.deepEqual(processesMarked(mark), []);
});

test('sweep --cycles 1,2 is an axis: a point per count, named by it, each cell ending its workers that many times', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-ending-'));
  const result = await cli(['sweep', '--quick', '--main', 'off', '-k', '2', '--cycles', '1,2', '--json', '--out', out]);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = JSON.parse(result.stdout);
  assert.deepEqual(document.axes.cycles, [1, 2]);
  assert.deepEqual(
    document.points.map((/** @type {any} */ point) => point.cycles),
    [1, 2],
  );
  for (const point of document.points)
    for (const round of point.rounds)
      for (const mode of ['workers', 'procs']) assert.equal(round[mode].end.cycles.length, point.cycles);
  // the growth is read only where a cell had two cycles or more
  assert.equal(document.points[0].workers.keptGrowthPerCycle, undefined);
  assert.equal(typeof document.points[1].workers.keptGrowthPerCycle.median, 'number');
  const file = join(out, readdirSync(out).find((name) => name.endsWith('.json')) ?? '');
  const text = (await cli(['report', file])).stdout;
  assert.match(text, /│ cycles │/);
});
