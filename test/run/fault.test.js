// A fault round's parts on their own: the members count that lets a lost one go, the host's
// bookkeeping of the notice and the replacement, the figures the CLI reads from it, and its words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { membersCount } from '../../src/run/main-load.js';
import { faultOp, faultRound } from '../../src/run/fault.js';
import { outcomeOf, limitOf } from '../../src/run/fault-cell.js';
import { faultDiff, faultText } from '../../src/document/fault-words.js';

test('a member lost before its window ended is not waited for: the others are collected and finish', async () => {
  const said = [];
  let collected = 0;
  const members = membersCount(3, {
    quiet: false,
    windowsOver: () => {},
    collect: () => collected++,
    say: (m) => said.push(m),
  });
  for (const index of [0, 1, 2]) members.heard({ type: 'ready' }, index, null);
  members.heard({ type: 'done', end: '10' }, 1, null);
  members.lose(0);
  assert.equal(collected, 0, 'member 2 is still in its window');
  members.heard({ type: 'done', end: '12' }, 2, null);
  assert.equal(collected, 1);
  members.heard({ type: 'result' }, 1, 'one');
  members.heard({ type: 'result' }, 2, 'two');
  assert.deepEqual([...(await members.finished)].slice(1), ['one', 'two']);
  assert.deepEqual(members.unfinished(), []);
  // losing it again, or one that finished, changes nothing
  members.lose(0);
  members.lose(1);
  assert.equal(collected, 1);
});

test('one member, lost: nothing is left to wait for', async () => {
  const members = membersCount(1, { quiet: true, windowsOver: () => {}, collect: () => {}, say: () => {} });
  members.lose(0);
  assert.deepEqual(await members.finished, []);
});

test('the host notices the first loss once, starts one replacement, and reports once the others and the replacement are done', async () => {
  let started = 0;
  const lost = [];
  /** @type {(value: unknown) => void} */
  let othersDone = () => {};
  const round = faultRound({
    start: () => {
      started++;
      return {
        ready: Promise.resolve(),
        release: () => {},
        finished: Promise.resolve([{ ops: 100, start: '0', end: '1000', timeline: { setUp: String(10n ** 12n) } }]),
      };
    },
    lose: (index) => lost.push(index),
    others: new Promise((resolve) => (othersDone = resolve)),
    read: () => undefined,
  });
  round.faulting('5');
  round.lost(0, "'error' (Error)");
  round.lost(0, "'exit' (code 1)");
  round.lost(1, "'exit' (code 1)");
  assert.equal(started, 1);
  assert.deepEqual(lost, [0, 1]);
  othersDone(undefined);
  const seen = await round.done;
  assert.equal(seen.workersLost, 2);
  assert.equal(seen.event, "'error' (Error)");
  assert.equal(seen.faultAt, '5');
  assert.equal(seen.app, null);
});

test('the figures of a round whose app lived: from the fault to the notice, to the replacement set up, to full speed', () => {
  const ms = (/** @type {number} */ value) => String(BigInt(value) * 1000000n);
  const outcome = outcomeOf(
    {
      workersLost: 1,
      event: "'exit' (code 1)",
      faultAt: ms(1000),
      noticeAt: ms(1004),
      replacement: {
        index: 0,
        pid: 1,
        ops: 1000,
        start: ms(1200),
        end: ms(1210),
        timeline: { loaded: ms(1020), setUp: ms(1030), warm: ms(1200) },
        // batches of 100 ops at 2 ms each, then at 1 ms: full speed (10 ops/ms) after the second
        warmup: {
          ops: 500,
          ms: 7,
          capped: false,
          ramp: { from: ms(1040), batch: 100, atUs: [2000, 4000, 5000, 6000, 7000] },
        },
      },
      app: /** @type {any} */ ({
        requests: 50,
        lag: {
          histogram: [
            [1000, 48],
            [150e6, 2],
          ],
        },
      }),
    },
    17,
  );
  assert.equal(outcome.appSurvived, true);
  assert.equal(outcome.noticeMs, 4);
  assert.equal(outcome.replaceMs, 26);
  assert.equal(outcome.fullSpeedMs, 36 + 4);
  assert.equal(outcome.failedRequests, 2);
  assert.equal(outcome.requests, 50);
  assert.equal(outcome.afterOps, 17);
});

test('the failing op lies in the middle half of the window', () => {
  assert.equal(
    faultOp(1000, () => 0),
    250,
  );
  assert.equal(
    faultOp(1000, () => 0.999),
    749,
  );
  assert.equal(
    faultOp(1, () => 0),
    1,
  );
});

test("native-oom's limit: twice the most a measured tree held, at least 512 MiB", () => {
  const round = (/** @type {number} */ pss) => ({ index: 1, cells: { workers: { memory: { pssBytes: pss } } } });
  const session = /** @type {any} */ ({ rounds: [round(100 << 20), round(400 << 20)] });
  assert.equal(limitOf(session, 'workers'), 800 << 20);
  assert.equal(limitOf(session, 'procs'), 512 << 20);
});

const died = {
  appSurvived: false,
  workersLost: 2,
  failedRequests: null,
  requests: null,
  noticeMs: null,
  replaceMs: null,
  fullSpeedMs: null,
  event: 'SIGABRT',
  afterOps: 3,
};
const lived = {
  appSurvived: true,
  workersLost: 1,
  failedRequests: 3,
  requests: 90,
  noticeMs: 7.25,
  replaceMs: 36.4,
  fullSpeedMs: null,
  event: "'exit' (SIGABRT)",
  afterOps: 5,
};

test('the line names each mode: the app and its workers where it died; else the workers lost, when noticed and replaced, the requests stalled', () => {
  assert.equal(
    faultText({ fault: { kind: 'abort', workers: died, procs: lived }, config: { k: 2 } }),
    'one abort (SIGABRT, as a native crash) took down: with workers, the app and 2 of 2 workers (SIGABRT); with procs, 1 of 2 workers, noticed in 7.3 ms, replaced in 36 ms, 3 of 90 requests stalled',
  );
  assert.equal(
    faultText({ fault: { kind: 'throw', workers: { error: 'timed out' } }, config: { k: 2 } }),
    'one uncaught throw took down: with workers, no answer: its round failed (timed out)',
  );
  assert.equal(faultText({ config: { k: 2 } }), null);
});

test('diff: a mode changed where the app lived in one run and died in the other, not where only the times moved', () => {
  const diff = faultDiff(
    { kind: 'abort', workers: died, procs: lived },
    { kind: 'abort', workers: lived, procs: { ...lived, replaceMs: 50 } },
    { base: 2, new: 2 },
  );
  assert.deepEqual(
    diff.modes.map((row) => [row.mode, row.changed]),
    [
      ['workers', true],
      ['procs', false],
    ],
  );
  assert.deepEqual(diff.kind, { base: 'abort', new: 'abort' });
  assert.equal(faultDiff(null, { kind: 'exit', procs: lived }, { base: 0, new: 2 }).modes[1].changed, true);
});
