// stop() waits for the maps a slow bpftrace prints (resolving stacks on a loaded machine takes
// seconds), says so while it waits, and gives up only past its limit, leaving nothing running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { startTrace } from '../../src/trace/tracer.js';
import { fixture, processesMarked, uniqueMark } from '../helpers.js';

const slowTracer = (seconds, limits, { losesSignals = 0 } = {}) => {
  process.env.SLOW_EXIT = String(seconds);
  process.env.LOSES_SIGNALS = String(losesSignals);
  process.env.MMAPBENCH_TEST_MARK = uniqueMark();
  const notes = new PassThrough().setEncoding('utf8');
  let said = '';
  notes.on('data', (chunk) => (said += chunk));
  return {
    started: startTrace({ bpftrace: fixture('slow-bpftrace.js'), root: process.pid, stderr: notes, ...limits }),
    said: () => said,
  };
};
const left = () => processesMarked(process.env.MMAPBENCH_TEST_MARK);

test('a bpftrace slow to print its maps is waited for, with a note, and its maps are read', async () => {
  const { started, said } = slowTracer(0.6, { stopNoteMs: 200, stopTimeoutMs: 5000 });
  const tracer = await started;
  const trace = await tracer.stop();
  assert.ok(trace.write.count > 0, 'the maps printed after the wait are the result');
  assert.match(said(), /^mmapbench: bpftrace is still printing its maps after 0\.2 s .*Ctrl-C again gives them up\n$/);
});

test('a lost stop signal is sent again until bpftrace prints its maps', async () => {
  // bpftrace 0.17 loses a signal that arrives between two polls, and then polls for ever
  const { started, said } = slowTracer(
    0,
    { stopNoteMs: 5000, stopTimeoutMs: 5000, resignalMs: 100 },
    { losesSignals: 2 },
  );
  const trace = await (await started).stop();
  assert.ok(trace.write.count > 0, 'the maps printed after the third signal are the result');
  assert.equal(said(), '');
  assert.deepEqual(left(), []);
});

test('a stop that finishes before the note says nothing', async () => {
  const { started, said } = slowTracer(0, { stopNoteMs: 2000, stopTimeoutMs: 5000 });
  const trace = await (await started).stop();
  assert.ok(trace.write.count > 0);
  assert.equal(said(), '');
});

test('past its limit, stop() kills bpftrace and says the maps are lost', async () => {
  const { started } = slowTracer(30, { stopNoteMs: 100, stopTimeoutMs: 400 });
  const tracer = await started;
  await assert.rejects(tracer.stop(), {
    name: 'MmapbenchError',
    message: 'bpftrace did not print its maps within 0.4 s of SIGTERM; they are lost',
  });
  assert.deepEqual(left(), []);
});

test('cancel() ends bpftrace at once, without waiting for its maps', async () => {
  const { started } = slowTracer(30, {});
  const tracer = await started;
  // the fake would print its maps 30 s after a SIGTERM; cancel() does not wait for them
  const first = await Promise.race([
    tracer.cancel().then(() => 'cancelled'),
    delay(10_000, 'still waiting', { ref: false }),
  ]);
  assert.equal(first, 'cancelled');
  assert.deepEqual(left(), []);
});
