// Thread naming, Buffer and fs internals differ across Node majors, so the smoke compare also
// runs on Node 24 from the npm registry (`node scripts/install-node.js 24`, which .ci/run calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_TASKS } from '../../src/tasks/index.js';
import { cli, secondNode } from '../helpers.js';

const { path: node24, missing, skip } = await secondNode();

for (const task of BUILTIN_TASKS) {
  test(`compare --quick --node <Node 24> runs ${task} on that node`, { skip }, async () => {
    assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
    const result = await cli(['compare', '--task', task, '--quick', '--node', node24, '--json']);
    assert.equal(result.exitCode, 0, result.stderr);
    const doc = JSON.parse(result.stdout);
    assert.match(doc.environment.node.version, /^v24\./);
    assert.equal(doc.config.node, node24);
    assert.equal(doc.status, 'complete');
    assert.ok(doc.ratio.median > 0);
  });
}
