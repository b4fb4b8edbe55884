import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_TASKS, loadTask, METRIC_COMBINE, METRIC_UNITS, PARAM_TYPES } from '../../src/tasks/index.js';
import { fixture } from '../helpers.js';

test('every built-in task has the user-task shape', async () => {
  for (const name of BUILTIN_TASKS) {
    const task = await loadTask(name);
    assert.equal(task.name, name);
    assert.equal(task.builtin, true);
    assert.ok(task.description.length > 10, `${name} has a description`);
    for (const [param, spec] of Object.entries(task.params)) {
      assert.ok(spec.description && PARAM_TYPES.includes(spec.type), `${name}.${param} is documented`);
      // a parameter without a default must say what leaving it out means
      if (spec.default === undefined) assert.match(spec.description, /left out/, `${name}.${param}`);
    }
    for (const [metric, spec] of Object.entries(task.metrics)) {
      assert.ok(spec.description && METRIC_UNITS.includes(spec.unit), `${name} ${metric}`);
      assert.ok(METRIC_COMBINE.includes(spec.combine), `${name} ${metric}`);
    }
  }
});

test('a CommonJS user task loads with its own parameters', async () => {
  const task = await loadTask(fixture('commonjs-task.cjs'));
  assert.equal(task.name, 'commonjs-task');
  assert.equal(task.builtin, false);
  assert.deepEqual(Object.keys(task.params), ['repeat']);
});

test('the example task in the README loads', async () => {
  const task = await loadTask('examples/my-task.mjs');
  assert.equal(task.builtin, false);
  assert.equal(task.name, 'concat-chunks');
  assert.equal(task.op, true, 'it gives one op, which the harness loops and times');
});

test('broken task modules are usage errors that say what is missing', async () => {
  await assert.rejects(loadTask('no-such-task'), {
    kind: 'usage',
    message: /unknown task "no-such-task"; built-in tasks are readfilesync/,
  });
  await assert.rejects(loadTask('./missing.js'), { kind: 'usage', message: /not found/ });
  await assert.rejects(loadTask(fixture('no-run.js')), {
    kind: 'usage',
    message: /has no op\(ctx\) nor run\(ctx, iterations\) function \(it exports name, setup\)/,
  });
  await assert.rejects(loadTask(fixture('op-and-run.mjs')), {
    kind: 'usage',
    message: /exports both op and run; give op\(ctx\) .* or run\(ctx, iterations\) .*, not both$/,
  });
  await assert.rejects(loadTask(fixture('broken.js')), { kind: 'usage', message: /failed to load: .*doesNotExist/ });
});

test('threadpool-clog reads every byte of the file, whole or in partitions', async () => {
  const { mkdtempSync, openSync, closeSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { readPartitioned, readWhole } = await import('../../src/tasks/threadpool-clog.js');
  const file = join(mkdtempSync(join(tmpdir(), 'mmapbench-clog-')), 'data');
  const content = Buffer.from(Array.from({ length: 100_003 }, (_, i) => i % 251)); // not a multiple of 4096
  writeFileSync(file, content);
  const fd = openSync(file, 'r');
  try {
    for (const read of [(buffer) => readWhole(fd, buffer), (buffer) => readPartitioned(fd, buffer, 4096)]) {
      const buffer = Buffer.alloc(content.length);
      assert.equal(await read(buffer), content.length);
      assert.ok(buffer.equals(content));
    }
  } finally {
    closeSync(fd);
  }
});
