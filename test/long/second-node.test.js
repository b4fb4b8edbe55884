// Thread naming, Buffer and fs internals differ across Node majors, so the smoke compare also
// runs on Node 24 from the npm registry (`node scripts/install-node.js 24`, which .ci/run calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_TASKS } from '../../src/tasks/index.js';
import { quickCompare, secondNode } from '../helpers.js';

const { path: node24, missing, skip } = await secondNode();

for (const task of BUILTIN_TASKS) {
  test(`compare --quick --node <Node 24> runs ${task} on that node`, { skip }, async () => {
    assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
    const doc = await quickCompare(task, ['--node', node24]);
    assert.match(doc.environment.node.version, /^v24\./);
    assert.equal(doc.config.node, node24);
  });
}
