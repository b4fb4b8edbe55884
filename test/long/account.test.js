// The account's regime line on a built-in task's tenths, its table in the terminal, the default
// warmup until steady, and the probes of blocked and user time (test/cli/account.test.js keeps
// the account's lines in the JSON and the page-fault probe).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixture, measured } from '../helpers.js';
import { accountProbe as probe, offQueue } from '../cases.js';
import { accountWordsOf } from '../../src/document/sentences.js';

test("a built-in task's cells say their regime: the window's last tenth against its first", async () => {
  const result = await cli([
    'procs',
    '-k',
    '1',
    '--rounds',
    '2',
    '--iterations',
    '2000',
    '--warmup',
    '200',
    '--json',
    '--no-save',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = measured(result.stdout);
  assert.equal(doc.rounds[0].procs.account.slices.length, 10);
  assert.match(
    accountWordsOf(doc.account, doc)?.regime ?? '',
    /^regime \(median over 2 cells\): procs (steady|still warming up|slowing down)/,
  );
});
test('compare warms up until steady by default: each worker says how long, and the words say it', async () => {
  const result = await cli([
    'compare',
    '--task',
    fixture('warms-up.js'),
    // batches of 500, so a preempted batch cannot end the warmup early (test/run/task-runner.test.js)
    '--iterations',
    '5000',
    '-k',
    '1',
    '--rounds',
    '2',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = measured(result.stdout);
  // a user's task has no tenths, so its regime line is the warmup alone
  assert.match(
    accountWordsOf(doc.account, doc)?.regime ?? '',
    /^regime: warmed up until the rate stopped trending, median per worker: workers [\d,]+ ops/,
  );
  assert.equal(doc.config.warmup, 'steady');
  // Whether the rule sees the ramp end is a judgement of timed batches, which a loaded machine
  // blurs (two spinning processes beside it stopped it at the ramp's last batch): that it runs
  // past the ramp is test/run/task-runner.test.js's, in-process. Here: what every cell reports.
  for (const round of doc.rounds)
    for (const mode of ['workers', 'procs'])
      for (const worker of round[mode].workers) {
        assert.ok(worker.warmup.ops >= 3000, `${mode}: at least the rule's six batches (${worker.warmup.ops})`);
        assert.equal(worker.warmup.ops % 500, 0, 'in batches of a tenth of the timed ops');
        assert.equal(typeof worker.warmup.capped, 'boolean');
      }
  assert.ok(doc.account.warmup.workers.ops >= 3000 && doc.account.warmup.procs.ops >= 3000);
});
test('--verbose prints the account table and its sentence', async () => {
  const result = await cli(['compare', '--quick', '--no-save', '--verbose']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /per op: mean ± 95% CI, 2/);
  assert.match(result.stdout, /│ wall, µs /);
  assert.match(result.stdout, /workers − procs/);
  assert.match(result.stdout, /^--quick: cells of a few milliseconds/m);
  assert.match(result.stdout, /^account: each worker thread's own counters/m);
});

test('a task that sleeps shows its time as blocked', async () => {
  const of = await probe('sleep');
  assert.ok(of('blockedNs') > 0.8 * offQueue(of), `blocked ${of('blockedNs')} of ${offQueue(of)} off the run queue`);
  assert.ok(of('voluntary') >= 0.9, 'each op gives up the CPU');
});

test('a task that spins shows its time as user time', async () => {
  const of = await probe('spin');
  assert.ok(of('userNs') > 0.8 * offQueue(of), `user ${of('userNs')} of ${offQueue(of)} off the run queue`);
  assert.ok(of('blockedNs') < 0.2 * of('wallNs'), `blocked ${of('blockedNs')}`);
});
