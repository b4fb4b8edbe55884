// The upstream table (src/reference/node-changes.js) against the real binaries: each row's probe,
// run on this machine's Node and on 22, 24 and 26 as `--node` installs them, agrees with what
// the table says of that release. The partitioned readFile is read from its system calls
// (strace, which .ci/run installs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { hasChange, NODE_CHANGES } from '../../src/reference/node-changes.js';
import { installedNode } from '../helpers.js';
import { which } from '../../src/system/which.js';

const nodes = [
  { major: String(process.versions.node.split('.')[0]), path: process.execPath, missing: false, skip: false },
  ...(await Promise.all(['22', '24', '26'].map(async (major) => ({ major, ...(await installedNode(major)) })))),
];
const strace = which('strace');

for (const { major, path, missing, skip } of nodes) {
  test(`the upstream table holds on Node ${major}, each row probed on the binary`, { skip }, async () => {
    assert.ok(!missing, `${path} is missing: .ci/run must run \`node scripts/install-node.js ${major}\` first`);
    const { stdout: version } = await execa(path, ['-p', 'process.version']);
    for (const change of NODE_CHANGES.filter((one) => one.probe !== null)) {
      const { stdout } = await execa(path, [
        '-e',
        `Promise.resolve(${change.probe}).then((has) => process.stdout.write(String(has)))`,
      ]);
      assert.equal(stdout, String(hasChange(change.id, version)), `${change.id} on ${version}`);
    }
  });

  test(`Node ${major}'s readFile reads a 2 MiB file in 512 KiB parts, as the table says`, { skip }, async (t) => {
    assert.ok(!missing, `${path} is missing`);
    assert.ok(strace || !process.env.CI, 'strace is missing: .ci/run must install it');
    if (!strace) return t.skip('strace is not installed here (apt-get install strace)');
    const dir = mkdtempSync(join(tmpdir(), 'mmapbench-readfile-'));
    try {
      const file = join(dir, 'two-mib');
      writeFileSync(file, Buffer.alloc(2 * 1024 * 1024, 1));
      const log = join(dir, 'strace');
      await execa(strace, [
        '-f',
        '-e',
        'trace=read',
        '-o',
        log,
        path,
        '-e',
        `require('fs').readFile(${JSON.stringify(file)}, () => {})`,
      ]);
      const parts = readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => /read\(\d+, .*, 524288\) = 524288/.test(line));
      const { stdout: version } = await execa(path, ['-p', 'process.version']);
      assert.equal(parts.length === 4, hasChange('partitioned-readfile', version), `${parts.length} reads of 512 KiB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
