import { test } from 'node:test';
import assert from 'node:assert/strict';
import { causeLine } from '../../src/run/host-failure.js';

test("the cause of a dead process is its error line, not Node's version footer or a native frame", () => {
  const uncaught =
    "file:///x/task.js:3\n    throw new Error('disk on fire');\n    ^\n\nError: disk on fire\n    at run (file:///x/task.js:3:11)\n\nNode.js v20.20.2\n";
  assert.equal(causeLine(uncaught), 'Error: disk on fire');
  const oom =
    '<--- Last few GCs --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n----- Native stack trace -----\n\n 1: 0xb8a5ac node::OOMErrorHandler\n';
  assert.equal(causeLine(oom), 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory');
  assert.equal(causeLine('something odd\nNode.js v20.20.2\n'), 'something odd');
  assert.equal(causeLine(undefined), '');
});
