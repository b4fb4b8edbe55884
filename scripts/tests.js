#!/usr/bin/env node
// Runs one group of the test suite, its files found by folder, so a test in a new folder runs
// without anyone adding it to a list: `cli` and `long` spawn the CLI and measure, one file at a
// time (two measurements at once on 2 cores measure each other); `unit` is every other folder
// under test/, two files at a time. The examples' own tests (examples/api/) run with `long`: a
// project's performance test asserts a bound on its interval, which `npm test` never does.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../test/', import.meta.url));
const SERIAL = ['cli', 'long'];
const group = process.argv[2];
if (!['unit', ...SERIAL].includes(group)) {
  process.stderr.write(`usage: node scripts/tests.js unit|${SERIAL.join('|')} [node --test options]\n`);
  process.exit(2);
}

/** Every *.test.js below `dir`, fixtures aside. */
const testsIn = (/** @type {string} */ dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testsIn(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });

// the examples that are tests (examples/api/) run the CLI's cells as a user's project would: with long
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const files = [
  ...testsIn(root)
    .map((path) => relative(process.cwd(), path))
    .filter((path) => {
      const folder = relative(root, join(process.cwd(), path)).split('/')[0];
      return group === 'unit' ? !SERIAL.includes(folder) : folder === group;
    })
    .sort(),
  ...(group === 'long'
    ? testsIn(examples)
        .map((path) => relative(process.cwd(), path))
        .sort()
    : []),
];
const concurrency = group === 'unit' ? 2 : 1;
const { status, signal } = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, ...process.argv.slice(3), ...files],
  { stdio: 'inherit' },
);
process.exitCode = status ?? (signal ? 1 : 0);
