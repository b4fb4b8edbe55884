// The Node that runs mmapbench says its own default pool: 8 KiB on 22, 64 KiB on 24 and 26
// (nodejs/node#63597, from 24.18.0 and 26.3.0), where the tool once assumed 8 KiB everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { BIN, ENV, installedNode } from '../../helpers.js';

for (const [major, pool] of /** @type {const} */ ([
  ['22', '8 KiB'],
  ['24', '64 KiB'],
  ['26', '64 KiB'],
])) {
  const { path, missing, skip } = await installedNode(major);
  test(
    `under Node ${major}, tasks pool-size and reproduce --list pool-grid name ${pool} as its default pool`,
    { skip },
    async () => {
      assert.ok(!missing, `${path} is missing: .ci/run must run \`node scripts/install-node.js ${major}\` first`);
      const tasks = await execa(path, [BIN, 'tasks', 'pool-size'], { env: ENV });
      assert.match(
        tasks.stdout.replace(/\s+/g, ' '),
        new RegExp(`this Node's default pool: ${pool} \\(Buffer\\.poolSize on Node v${major}\\.`),
      );
      const list = await execa(path, [BIN, 'reproduce', '--list', 'pool-grid', '--markdown'], { env: ENV });
      assert.match(
        list.stdout.replace(/\s+/g, ' '),
        new RegExp(`on Node v${major}\\.[\\d.]+ Buffer\\.poolSize is ${pool} by default`),
      );
    },
  );
}
