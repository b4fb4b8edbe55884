// A thread's own counters, read from /proc/thread-self through descriptors that stay open:
// each read is fresh, and a Worker reads its own thread, not the one that loaded the module first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { readCounters } from '../../src/run/thread-counters.js';

const spin = (ms) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test('each read is fresh: spinning adds time on a CPU, sleeping adds a voluntary switch', () => {
  const first = readCounters();
  for (const key of ['cpuNs', 'runqNs', 'minflt', 'majflt', 'voluntary', 'involuntary'])
    assert.equal(typeof first[key], 'number', key);
  spin(50);
  const spun = readCounters();
  assert.ok(spun.cpuNs > first.cpuNs && spun.minflt >= first.minflt, 'counted on');
  sleep(20);
  const slept = readCounters();
  assert.ok(slept.voluntary > spun.voluntary, 'the sleep blocked the thread');
});

test("a Worker reads its own thread's counters", async () => {
  readCounters(); // this thread opens its descriptors first
  spin(200);
  const mine = readCounters();
  const source = `
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(new URL('../../src/run/thread-counters.js', import.meta.url).href)}).then(({ readCounters }) => {
      const before = readCounters();
      const until = performance.now() + 30;
      while (performance.now() < until);
      parentPort.postMessage({ before, after: readCounters() });
    });`;
  const { before, after } = await new Promise((resolve, reject) =>
    new Worker(source, { eval: true }).once('message', resolve).once('error', reject),
  );
  assert.ok(before.cpuNs < mine.cpuNs, "the Worker's own CPU time so far, not this thread's");
  assert.ok(after.cpuNs > before.cpuNs, 'and its spin');
});
