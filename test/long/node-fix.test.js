// Node's own fix on the Node 24 CI installs: the task in both forms, and a sweep over two Nodes
// that marks the point the older one cannot run (seconds each: npm test's budget is full).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, quickCompare, secondNode } from '../helpers.js';

const { path: node24, missing, skip } = await secondNode();

test(
  'readfilesync-into on Node 24 reads into its one buffer in both modes (every read checks it)',
  { skip },
  async () => {
    assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
    for (const into of ['buffer', 'function']) {
      const doc = await quickCompare('readfilesync-into', ['--node', '24', '--param', `into=${into}`]);
      assert.deepEqual(doc.config.params, { into });
    }
  },
);

test('a sweep marks the point whose Node lacks the option and runs the rest', { skip }, async () => {
  assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
  const result = await cli([
    'sweep',
    '--quick',
    '--node',
    process.execPath,
    '--node',
    '24',
    '--task',
    'readfilesync,readfilesync-into',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = JSON.parse(result.stdout);
  const points = doc.points.map((p) => [p.node.version.split('.')[0], p.task, p.status]);
  assert.deepEqual(points, [
    ['v20', 'readfilesync', 'complete'],
    ['v20', 'readfilesync-into', 'unavailable'],
    ['v24', 'readfilesync', 'complete'],
    ['v24', 'readfilesync-into', 'complete'],
  ]);
  assert.equal(doc.points[1].rounds.length, 0);
  assert.match(doc.points[1].unavailable, /no buffer option/);
});
