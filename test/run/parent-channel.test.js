// The channel a task that talks to its parent gets: what comes back, and how each way of
// crossing changes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkedParent, loopback } from '../../src/run/parent-channel.js';

test('a port: the value comes back as a structured clone, and a moved ArrayBuffer is moved back', async () => {
  const parent = loopback();
  assert.deepEqual(await parent.request({ rows: [1, 2], name: 'job' }), { rows: [1, 2], name: 'job' });
  const buffer = new ArrayBuffer(16);
  const back = await parent.request(buffer, [buffer]);
  assert.equal(buffer.byteLength, 0, 'moved away');
  assert.ok(back instanceof ArrayBuffer && back.byteLength === 16, 'and back');
  parent.close?.();
});

test("a process's channel: json turns a Buffer into an array of numbers, advanced keeps its bytes", async () => {
  const json = forkedParent('json');
  assert.deepEqual(await json.request(Buffer.from([1, 2, 3])), { type: 'Buffer', data: [1, 2, 3] });
  const advanced = forkedParent('advanced');
  const back = await advanced.request(Buffer.from([1, 2, 3]));
  assert.ok(back instanceof Uint8Array);
  assert.deepEqual([...back], [1, 2, 3]);
  json.close?.();
  advanced.close?.();
});
