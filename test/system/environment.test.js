import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEnvironment, physicalCores, readChoice } from '../../src/system/environment.js';

test('the bracketed token of a sysfs choice file is the mode in force', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-test-')), 'enabled');
  writeFileSync(path, 'always [madvise] never\n');
  assert.equal(readChoice(path), 'madvise');
  assert.equal(readChoice(join(tmpdir(), 'no-such-file')), null);
});

test('physical cores count distinct (package, core) pairs', () => {
  const cpuinfo = [
    'physical id\t: 0',
    'core id\t\t: 0',
    'physical id\t: 0',
    'core id\t\t: 0',
    'physical id\t: 0',
    'core id\t\t: 1',
    'physical id\t: 1',
    'core id\t\t: 0',
  ].join('\n');
  assert.equal(physicalCores(cpuinfo), 3);
  assert.equal(physicalCores('processor : 0'), null);
});

test("the environment block names the cells' node and allocator variables only", () => {
  const env = describeEnvironment({
    node: { path: '/x/node', version: 'v99.0.0' },
    env: { MALLOC_ARENA_MAX: '1', LD_PRELOAD: '/lib/j.so', HOME: '/root' },
  });
  assert.deepEqual(env.node, { path: '/x/node', version: 'v99.0.0' });
  assert.deepEqual(env.allocatorEnv, { LD_PRELOAD: '/lib/j.so', MALLOC_ARENA_MAX: '1' });
  for (const key of ['kernel', 'glibc', 'cpu', 'thp', 'date']) assert.ok(key in env, key);
  assert.ok(env.cpu.logicalCores >= 1 && env.cpu.physicalCores >= 1);
});
