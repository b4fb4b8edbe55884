// Finding libjemalloc without guessing: --jemalloc, then ldconfig's cache, then the usual paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findJemalloc, fromLdconfig, preloadProblem } from '../../src/system/jemalloc.js';

const LISTING = `1234 libs found in cache \`/etc/ld.so.cache'
	libjemalloc.so.2 (libc6,AArch64) => /usr/lib/aarch64-linux-gnu/libjemalloc.so.2
	libjemalloc.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libjemalloc.so.2
	libjson-c.so.5 (libc6,x86-64) => /lib/x86_64-linux-gnu/libjson-c.so.5
`;

test('ldconfig -p: the entry for this architecture', () => {
  assert.equal(fromLdconfig(LISTING, 'x64'), '/lib/x86_64-linux-gnu/libjemalloc.so.2');
  assert.equal(fromLdconfig(LISTING, 'arm64'), '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2');
  assert.equal(fromLdconfig('libjson-c.so.5 (libc6,x86-64) => /x\n', 'x64'), null);
});

test('the order: --jemalloc, ldconfig, usual paths, else the install hint', () => {
  const exists = (path) => path !== '/missing.so';
  assert.deepEqual(findJemalloc('/mine.so', { exists }), { path: '/mine.so', how: '--jemalloc', why: null });
  assert.throws(
    () => findJemalloc('/missing.so', { exists }),
    (error) => error.exitCode === 2 && /--jemalloc \/missing.so is not a readable file/.test(error.message),
  );
  assert.equal(findJemalloc(undefined, { listing: () => LISTING, exists }).how, 'ldconfig -p');
  assert.deepEqual(
    findJemalloc(undefined, { listing: () => '', exists: (p) => p === '/usr/lib64/libjemalloc.so.2' }).path,
    '/usr/lib64/libjemalloc.so.2',
  );
  const none = findJemalloc(undefined, { listing: () => '', exists: () => false });
  assert.equal(none.path, null);
  assert.match(none.why, /libjemalloc not found .*apt-get install libjemalloc2.*--jemalloc PATH/);
});

test('a preload the loader ignores is caught, not measured as jemalloc', () => {
  assert.match(preloadProblem(process.execPath, '/nonexistent/libjemalloc.so.2'), /did not load/);
});

test('the jemalloc found here really loads under LD_PRELOAD (CI installs libjemalloc2)', (t) => {
  const found = findJemalloc();
  if (!found.path && !process.env.CI) return t.skip(`no jemalloc on this machine: ${found.why}`);
  assert.ok(found.path, found.why);
  assert.equal(preloadProblem(process.execPath, found.path), null);
});
