// Node's fix as a task: a Node without readFileSync's buffer option ignores it and returns a new
// Buffer with no error, so the task checks where the bytes landed, never the absence of an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import task, { bufferOptionWorks } from '../../src/tasks/readfilesync-into.js';
import { hasBufferOption as releaseHasIt } from '../../src/reference/node-changes.js';
import { fixture } from '../helpers.js';

const here = releaseHasIt(process.version);

test('the task asks this Node itself, and agrees with the releases known to have the option', () => {
  assert.equal(bufferOptionWorks(), here);
  assert.equal(task.unavailable() === null, here);
  if (!here)
    assert.match(task.unavailable(), /no buffer option \(it returns a new Buffer\).*24\.19\.0 and 26\.4\.0.*--node 26/);
});

for (const into of ['buffer', 'function']) {
  test(`--param into=${into}: every read lands in the buffer allocated in setup, or the run stops`, () => {
    const file = fixture('env-seen.js');
    const ctx = { file, fileSize: readFileSync(file).length, params: { into }, state: {} };
    task.setup(ctx);
    if (here) {
      task.run(ctx, 3);
      assert.deepEqual(ctx.state.buffer, readFileSync(file));
    } else {
      // Node 20 ignores the option: the first read says so instead of measuring a plain read
      assert.throws(() => task.run(ctx, 3), /no buffer option/);
    }
  });
}

test("`mmapbench tasks` puts Node's own fix first where the Node has it, and the upgrade where it has not", async () => {
  const { fixNote } = await import('../../src/commands/tasks/list.js');
  assert.match(
    fixNote('v24.21.0'),
    /has readFileSync's buffer option: .*try readfilesync-into first, then reuse-buffer/,
  );
  assert.match(
    fixNote('v20.20.2'),
    /has no readFileSync buffer option .*reuse-buffer is the fix by hand here.*--node 26 --task readfilesync-into/,
  );
});
