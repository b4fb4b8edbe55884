// `--node VERSION`: the version forms, the cache's layout, and what is never taken for an
// installed release (an install killed half-way, a folder without its binary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  binaryIn,
  installedReleases,
  newestFirst,
  PACKAGE,
  releaseBinary,
  releaseDir,
  removeAbandoned,
  satisfies,
} from '../../src/system/node-release.js';
import { parseVersionSpec } from '../../src/system/node.js';
import { hasBufferOption } from '../../src/reference/node-changes.js';

test('a version is a major, a minor line or one release, with or without v; anything else is a path', () => {
  assert.deepEqual(parseVersionSpec('26'), { major: 26, minor: null, patch: null });
  assert.deepEqual(parseVersionSpec('v24.19'), { major: 24, minor: 19, patch: null });
  assert.deepEqual(parseVersionSpec('24.19.0'), { major: 24, minor: 19, patch: 0 });
  for (const path of ['abc', './24', '24.x', '', '1.2.3.4', '/usr/bin/node', '24.', 'v'])
    assert.equal(parseVersionSpec(path), null, path);
});

test('a release satisfies the spec that names its line; newest first orders by number, not text', () => {
  assert.ok(satisfies(parseVersionSpec('24'), '24.21.0'));
  assert.ok(satisfies(parseVersionSpec('24.19'), 'v24.19.3'));
  assert.ok(!satisfies(parseVersionSpec('24.19'), '24.21.0'));
  assert.ok(!satisfies(parseVersionSpec('2'), '24.0.0'));
  assert.deepEqual(['26.9.0', '26.10.0', '24.21.0', '26.4.1'].sort(newestFirst), [
    '26.10.0',
    '26.9.0',
    '26.4.1',
    '24.21.0',
  ]);
});

/** A cache folder (0700, as mmapbench makes it) holding these releases' binaries. */
function cacheWith(versions) {
  const cache = join(mkdtempSync(join(tmpdir(), 'mmapbench-node-cache-')), 'node');
  mkdirSync(cache, { mode: 0o700 });
  for (const version of versions) {
    const binary = binaryIn(releaseDir(cache, version));
    mkdirSync(join(binary, '..'), { recursive: true });
    writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 });
  }
  return cache;
}

test('the cache holds a folder per release; a half-installed one or one without bin/node is not a release', () => {
  const cache = cacheWith(['24.19.0', '26.10.0', '24.21.0']);
  assert.equal(releaseDir(cache, '24.21.0'), join(cache, `${PACKAGE}-24.21.0`));
  mkdirSync(join(cache, `.${PACKAGE}-26.11.0.999999.partial`, 'node_modules'), { recursive: true });
  mkdirSync(join(cache, `${PACKAGE}-22.1.0`)); // npm stopped before the binary
  assert.deepEqual(installedReleases(cache), ['26.10.0', '24.21.0', '24.19.0']);
  assert.deepEqual(installedReleases(join(cache, 'missing')), []);
});

test('an install whose process is gone is removed; one still running is left alone', () => {
  const cache = cacheWith([]);
  const dead = join(cache, `.${PACKAGE}-26.10.0.999999999.partial`);
  const live = join(cache, `.${PACKAGE}-26.10.0.${process.pid}.partial`);
  mkdirSync(dead);
  mkdirSync(live);
  removeAbandoned(cache);
  assert.equal(existsSync(dead), false);
  assert.equal(existsSync(live), true);
});

test('--node 24 takes the newest 24 in the cache without asking the registry', async () => {
  const cache = cacheWith(['24.19.0', '24.21.0', '26.10.0']);
  const said = [];
  const path = await releaseBinary('24', parseVersionSpec('24'), { cache, say: (line) => said.push(line) });
  assert.equal(path, binaryIn(releaseDir(cache, '24.21.0')));
  assert.equal(
    await releaseBinary('24.19', parseVersionSpec('24.19'), { cache }),
    binaryIn(releaseDir(cache, '24.19.0')),
  );
  assert.deepEqual(said, [], 'no install, no progress line');
});

test('--node 19 is refused with the fix; so is a cache folder other users can write', async () => {
  const cache = cacheWith(['24.21.0']);
  await assert.rejects(releaseBinary('19', parseVersionSpec('19'), { cache }), {
    kind: 'usage',
    message: /--node 19: mmapbench installs Node 20 or newer.*pass its binary's path/,
  });
  chmodSync(cache, 0o777);
  await assert.rejects(releaseBinary('24', parseVersionSpec('24'), { cache }), {
    kind: 'usage',
    message: /can be written by other users \(mode 777\).*set XDG_CACHE_HOME to a folder of your own/,
  });
});

test("readFileSync's buffer option: in 24 from 24.19, in 26 from 26.4, in every later major, never in 25 or older", () => {
  for (const [version, has] of [
    ['v20.20.2', false],
    ['v22.23.3', false],
    ['v24.18.1', false],
    ['v24.19.0', true],
    ['v24.21.0', true],
    ['v25.9.0', false],
    ['v26.3.1', false],
    ['v26.4.0', true],
    ['v26.10.0', true],
    ['v27.0.0', true],
  ])
    assert.equal(hasBufferOption(version), has, version);
});
