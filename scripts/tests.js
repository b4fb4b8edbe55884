#!/usr/bin/env node
// Runs one group of the test suite, its files found by folder, so a test in a new folder runs
// without anyone adding it to a list: `long` spawns the CLI and measures, one file at a time (two
// measurements at once on 2 cores measure each other); `cli` spawns it and checks what it does,
// two files at a time, but for the one whose figures are shares of a cell's time (ALONE), which
// runs first, alone; `unit` is every other folder under test/, two files at a time. The
// examples' own tests (examples/api/) run with `long`: a project's performance test asserts a
// bound on its interval, which `npm test` never does.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../test/', import.meta.url));
// the groups that are a folder of their own; unit is every other
const FOLDERS = ['cli', 'long'];
const group = process.argv[2];
if (!['unit', ...FOLDERS].includes(group)) {
  process.stderr.write(`usage: node scripts/tests.js unit|${FOLDERS.join('|')} [node --test options]\n`);
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
      return group === 'unit' ? !FOLDERS.includes(folder) : folder === group;
    })
    .sort(),
  ...(group === 'long'
    ? testsIn(examples)
        .map((path) => relative(process.cwd(), path))
        .sort()
    : []),
];
// the account's shares of a cell's time, read against each other, want the machine to themselves
const ALONE = ['test/cli/account.test.js'];
const batches =
  group === 'long'
    ? [{ files, concurrency: 1 }]
    : [
        { files: files.filter((path) => ALONE.includes(path)), concurrency: 1 },
        { files: files.filter((path) => !ALONE.includes(path)), concurrency: 2 },
      ].filter((batch) => batch.files.length);
process.exitCode = 0;
for (const batch of batches) {
  const { status, signal } = spawnSync(
    process.execPath,
    ['--test', `--test-concurrency=${batch.concurrency}`, ...process.argv.slice(3), ...batch.files],
    { stdio: 'inherit' },
  );
  if ((status ?? (signal ? 1 : 0)) !== 0) process.exitCode = status || 1;
}
