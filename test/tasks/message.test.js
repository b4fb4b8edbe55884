// The message task's own parts: the payload of a size, the user's file of messages, and which
// shapes a mode can carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import message, { MAX_MESSAGE_BYTES, objectOf, readMessages } from '../../src/tasks/message.js';

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

test('a file of messages that is missing, empty, of no message or not JSON is named with the fix', () => {
  assert.throws(() => readMessages(join(dir, 'nope.json')), /nope\.json: no such file; pass a JSON or JSON-lines file/);
  for (const [name, text] of [
    ['empty.json', ' \n'],
    ['none.json', '[]'],
  ])
    assert.throws(() => readMessages(file(name, text)), /holds no message; put at least one message in it/);
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
    /no such file/,
  );
});

test('a file of messages that is not a regular file is refused before it is read, whatever it is', () => {
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  // a read of a FIFO with no writer, or of /dev/zero, would never end
  for (const [path, kind] of [
    [fifo, 'a FIFO \\(named pipe\\)'],
    ['/dev/zero', 'a character device'],
    ['/dev/null', 'a character device'],
    [dir, 'a folder'],
  ])
    assert.throws(() => readMessages(path), new RegExp(`${kind}, not a regular file; pass a JSON or JSON-lines file`));
});

test('a message size is bounded by what a cell can hold, and is whole bytes', () => {
  const params = (/** @type {number} */ size) => ({ shape: 'buffer', size, serialization: 'json' });
  assert.equal(message.checkParams(params(MAX_MESSAGE_BYTES), ['workers', 'procs']), null);
  for (const size of [MAX_MESSAGE_BYTES + 1, 2 ** 30, 100 * 2 ** 30])
    assert.match(
      String(message.checkParams(params(size), ['workers'])),
      /is more than a message may hold \(64 MiB.*\); pass --size 64m or less$/,
    );
});
