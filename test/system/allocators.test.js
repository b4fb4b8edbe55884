import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findAllocators } from '../../src/system/allocators.js';

const LISTING = `3 libs found in cache \`/etc/ld.so.cache'
	libtcmalloc_minimal.so.4 (libc6,x86-64) => /lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4
	libtcmalloc_minimal_debug.so.4 (libc6,x86-64) => /lib/x86_64-linux-gnu/libtcmalloc_minimal_debug.so.4
	libjemalloc.so.2 (libc6) => /lib/i386-linux-gnu/libjemalloc.so.2
`;

test("each allocator from ldconfig's cache for this architecture, else the usual folders, else its install line", () => {
  const found = findAllocators({
    listing: () => LISTING,
    exists: () => true,
    folders: ['/opt/lib'],
    list: (folder) => (folder === '/opt/lib' ? ['libmimalloc.so.2.0', 'libmimalloc.so'] : []),
    arch: 'x64',
  });
  assert.deepEqual(
    found.map((one) => [one.name, one.path]),
    [
      // the cache's jemalloc is 32-bit: not this architecture's
      ['jemalloc', null],
      ['tcmalloc', '/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4'],
      ['mimalloc', '/opt/lib/libmimalloc.so.2.0'],
    ],
  );
  assert.match(found[0].install, /apt-get install libjemalloc2/);
});

test('a library the cache names but that is not there is not found', () => {
  const found = findAllocators({ listing: () => LISTING, exists: () => false, folders: [], arch: 'x64' });
  assert.deepEqual(
    found.map((one) => one.path),
    [null, null, null],
  );
});
