// `mmapbench reproduce --list`, as a new user runs it first: every experiment, and nothing
// downloaded to list them. The runs themselves are in test/long/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../helpers.js';
import { EXPERIMENTS } from '../../../src/commands/reproduce/experiments.js';

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
  // in a terminal: an experiment a line, its claim wrapped between words under itself, in 80
  // columns; one in full by its name
  const table = await cli(['reproduce', '--list'], { env: npm.env });
  const lines = table.stdout.split('\n');
  for (const { name } of EXPERIMENTS)
    assert.equal(lines.filter((line) => line.startsWith(`${name}  `)).length, 1, `${name}: one line`);
  assert.match(table.stdout, /^node-fix +installs +~\d+ (s|min) +\w+ +Node's fix/m);
  const widest = Math.max(...lines.map((line) => [...line].length));
  assert.ok(widest <= 80, `the terminal listing is ${widest} columns off a terminal`);
  assert.doesNotMatch(table.stdout, /…/, 'a claim cut short');
  const claimAt = lines[1].indexOf('Hypothesis 1');
  const words = (/** @type {string} */ text) => text.split(/\s+/).filter(Boolean);
  for (const { name, hypothesis, claim } of EXPERIMENTS) {
    // the claim's lines: its own, then those indented under it until the next experiment
    const from = lines.findIndex((line) => line.startsWith(`${name}  `));
    const own = [lines[from].slice(claimAt)];
    for (let i = from + 1; lines[i]?.startsWith(' '.repeat(claimAt)); i++) own.push(lines[i].slice(claimAt));
    // (and what it rests on here, for some: the pool's size on this Node)
    const expected = words(`${hypothesis}: ${claim}`);
    assert.deepEqual(words(own.join(' ')).slice(0, expected.length), expected, `${name}: its claim whole`);
  }
  const one = await cli(['reproduce', '--list', 'gap'], { env: npm.env });
  assert.equal(one.exitCode, 0, one.stderr);
  assert.match(one.stdout, /^│ gap +│ Hypothesis 1, +│ nothing +│ runs +│/m);
  // the gap claims are decided as they were published, on fresh workers, with warm beside
  assert.match(stdout, /^\| gap \|.*\| fresh: each worker's first 2,000 ops, as published; warm beside \|$/m);
  assert.match(stdout, /^\| locks \|.*\| warm cells \(steady\) \|$/m);
  assert.match(table.stdout, /^gap +runs +~\d+ (s|min) +fresh +Hypothesis 1/m);
  assert.match(table.stdout, /^locks +\S+ +~\d+ (s|min) +warm +/m);
  assert.doesNotMatch(one.stdout, /│ arena/);
  const unknown = await cli(['reproduce', '--list', 'nope'], { env: npm.env });
  assert.equal(unknown.exitCode, 2);
  assert.match(unknown.stderr, /^mmapbench: no experiment nope; the experiments are gap, arena, /);
  assert.equal(npm.ran(), false, 'npm ran');
});
