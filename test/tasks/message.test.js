// The message task's own parts: the payload of a size, the user's file of messages, and which
// shapes a mode can carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import message, { objectOf, readMessages } from '../../src/tasks/message.js';

const dir = mkdtempSync(join(tmpdir(), 'mmapbench-message-'));
const file = (/** @type {string} */ name, /** @type {string} */ text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

test('an object of a size is about that many bytes as JSON, and grows with it', () => {
  for (const size of [100, 4096, 65_536, 1_048_576]) {
    const length = JSON.stringify(objectOf(size)).length;
    assert.ok(length >= size && length < size * 1.1 + 60, `${size}: ${length} bytes`);
  }
});

test("the user's messages: a JSON array of them, one JSON value, or JSON lines", () => {
  assert.deepEqual(readMessages(file('array.json', '[{"a":1},{"b":2}]')), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(readMessages(file('one.json', '{"job":"resize"}\n')), [{ job: 'resize' }]);
  assert.deepEqual(readMessages(file('lines.jsonl', '{"a":1}\n\n{"b":[1,2]}\n"text"\n')), [
    { a: 1 },
    { b: [1, 2] },
    'text',
  ]);
});

test('a file of messages that is missing, empty or not JSON is named with the fix', () => {
  assert.throws(
    () => readMessages(join(dir, 'nope.json')),
    /cannot be read \(ENOENT\); pass a JSON or JSON-lines file/,
  );
  assert.throws(() => readMessages(file('empty.json', ' \n')), /is empty; put at least one message in it/);
  assert.throws(
    () => readMessages(file('bad.jsonl', '{"a":1}\n{oops}\n')),
    /neither JSON nor JSON lines \(line 2 does not parse\)/,
  );
});

test('a shape a process cannot carry is refused where procs run, with the nearest a process has', () => {
  const params = (/** @type {string} */ shape) => ({ shape, size: 100, serialization: 'json' });
  for (const shape of ['transfer', 'shared']) {
    assert.match(
      String(message.checkParams(params(shape), ['workers', 'procs'])),
      new RegExp(`--shape ${shape} cannot cross a process.*--shape buffer --serialization advanced`),
    );
    assert.equal(message.checkParams(params(shape), ['workers']), null, 'threads alone carry it');
  }
  for (const shape of ['object', 'json', 'buffer'])
    assert.equal(message.checkParams(params(shape), ['workers', 'procs']), null);
  assert.match(
    String(message.checkParams({ ...params('object'), message: join(dir, 'nope.json') }, ['procs'])),
    /ENOENT/,
  );
});
