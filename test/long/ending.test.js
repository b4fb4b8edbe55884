// A worker the app cannot end: the cell fails with one line that names it, and nothing is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
