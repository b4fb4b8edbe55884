// The declarations `npm pack` ships, generated from the JSDoc (npm run types), compile a
// project that uses the API and writes a task, and refuse what the API does not take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tsc = (/** @type {string[]} */ args) =>
  execa(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, ...args], { cwd: ROOT, reject: false });

test(
  'a consumer compiles against the generated declarations, through the package name',
  { timeout: 120_000 },
  async () => {
    const generated = await tsc(['-p', 'tsconfig.types.json']);
    assert.equal(generated.exitCode, 0, generated.stdout);
    const consumer = await tsc(['-p', 'test/types/tsconfig.json']);
    assert.equal(consumer.exitCode, 0, consumer.stdout);
  },
);
