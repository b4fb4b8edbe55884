// `mmapbench reproduce --list`, as a new user runs it first: every experiment, and nothing
// downloaded to list them. The runs themselves are in test/long/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { EXPERIMENTS } from '../../src/reproduce/experiments.js';

/** An empty Node cache, and an npm on PATH that leaves a mark if anything runs it. */
function noDownloads() {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-no-npm-'));
  const mark = join(dir, 'npm-ran');
  writeFileSync(join(dir, 'npm'), `#!/bin/sh\necho "$@" >> '${mark}'\nexit 1\n`, { mode: 0o755 });
  const env = { XDG_CACHE_HOME: join(dir, 'cache'), PATH: `${dir}:${process.env.PATH}` };
  return { env, ran: () => existsSync(mark) && readFileSync(mark, 'utf8') };
}

test('--list names every experiment, the claim it tests, what it needs, whether it runs here and its time', async () => {
  // on an empty cache: what a run would install is said, and nothing is installed
  const npm = noDownloads();
  const { exitCode, stdout, stderr } = await cli(['reproduce', '--list', '--markdown'], { env: npm.env });
  assert.equal(exitCode, 0, stderr);
  assert.equal(npm.ran(), false, 'npm ran');
  assert.doesNotMatch(stderr, /installing/);
  assert.match(stdout, /^\| node-fix \|.*\| runs; will install Node 24 and Node 26 from the npm registry first \|/m);
  for (const { name } of EXPERIMENTS) assert.match(stdout, new RegExp(`^\\| ${name} \\|`, 'm'));
  assert.match(stdout, /Hypothesis 1, step 3: procs are at least/);
  assert.match(stdout, /libjemalloc/);
  assert.match(stdout, /~\d+ (s|min) \(--quick ~\d+ s\)/);
  const table = await cli(['reproduce', '--list']);
  const widest = Math.max(...table.stdout.split('\n').map((line) => [...line].length));
  assert.ok(widest <= 82, `the terminal listing is ${widest} columns off a terminal`);
});
