// Every built-in task in both modes, on this Node: a compatibility matrix (test/cli/ runs one
// task end to end; test/long/second-node.test.js runs them all on Node 24).
import { test } from 'node:test';
import { BUILTIN_TASKS } from '../../src/tasks/index.js';
import { quickCompare } from '../helpers.js';

// readfilesync-into needs Node 24.19+: node-fix.test.js and second-node.test.js run it there
for (const task of BUILTIN_TASKS.filter((name) => !['readfilesync', 'readfilesync-into'].includes(name))) {
  test(`compare --quick runs ${task} in both modes and reports a ratio`, async () => {
    await quickCompare(task);
  });
}
