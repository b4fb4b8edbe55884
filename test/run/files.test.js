import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatSize, parseSize, resolveFile } from '../../src/run/files.js';
import { MmapbenchError } from '../../src/errors.js';

test('sizes parse with binary units', () => {
  assert.equal(parseSize('64k'), 65536);
  assert.equal(parseSize('8m'), 8 * 1024 * 1024);
  assert.equal(parseSize('512'), 512);
  assert.equal(parseSize('64KiB'), 65536);
  assert.equal(parseSize('1.5k'), 1536);
  assert.equal(parseSize('abc'), null);
  assert.equal(parseSize('-4k'), null);
  assert.equal(formatSize(65536), '64 KiB');
  assert.equal(formatSize(128), '128 B');
});

test('names and sizes create fixture files of exactly that size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const med = resolveFile('med', dir);
  assert.equal(med.size, 65536);
  assert.equal(statSync(med.path).size, 65536);
  assert.match(med.label, /med \(64 KiB\)/);
  const sized = resolveFile('3k', dir);
  assert.equal(statSync(sized.path).size, 3072);
});

test('an existing file is used as is; a missing one is a usage error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const path = join(dir, 'data.bin');
  writeFileSync(path, Buffer.alloc(100));
  assert.equal(resolveFile(path).size, 100);
  assert.throws(() => resolveFile(join(dir, 'missing')), (error) => error instanceof MmapbenchError && error.kind === 'usage' && /does not exist/.test(error.message));
  assert.throws(() => resolveFile(dir), /not a regular file/);
});

// Root reads a file whatever its mode, so there the unreadable case cannot be made.
const root = process.getuid?.() === 0;
test('an unreadable file is a usage error', { skip: root && 'running as root, which can read a mode-000 file' }, () => {
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-test-')), 'secret.bin');
  writeFileSync(path, 'x');
  chmodSync(path, 0);
  assert.throws(() => resolveFile(path), (error) => error.kind === 'usage' && /is not readable \(EACCES\)/.test(error.message));
});
