// compare --fault, stopped in its fault rounds: the measured rounds and the fault rounds already
// run are kept, the run says it was interrupted, and nothing of its trees is left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { BIN, ENV, noneLeft, uniqueMark, measured } from '../helpers.js';

test('Ctrl-C in the fault rounds keeps every measured round and the mode already faulted; exit 130, nothing left', async () => {
  const mark = uniqueMark();
  const run = execa(
    process.execPath,
    [BIN, 'compare', '--quick', '-k', '2', '--iterations', '100000', '--fault', 'exit', '--no-save', '--json'],
    { reject: false, env: { ...ENV, MMAPBENCH_TEST_MARK: mark }, all: false },
  );
  // the workers' fault round said, the procs' under way: interrupt it
  await new Promise((resolve, reject) => {
    run.stderr?.on('data', (chunk) => String(chunk).includes('--fault exit, workers:') && resolve(undefined));
    run.then(() => reject(new Error('the run ended before its workers fault round was said')));
  });
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  const document = measured(result.stdout);
  assert.equal(document.status, 'interrupted');
  assert.equal(document.rounds.filter((round) => round.complete).length, 2);
  assert.equal(document.fault.workers.appSurvived, true);
  assert.equal(document.fault.procs, undefined);
  await noneLeft(mark);
});
