import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { anonymousBytes, mainHeapBytes, treeMemory } from '../../src/system/memory.js';

const rollup = (pss, anon = pss - 8, file = 8) =>
  `55d0c0000000-7ffd00000000 ---p 00000000 00:00 0 [rollup]\nRss: 9000 kB\nPss: ${pss} kB\nPss_Anon: ${anon} kB\nPss_File: ${file} kB\n`;
const status = (hwm) => `Name:\tnode\nVmHWM:\t  ${hwm} kB\nVmRSS:\t  100 kB\n`;
const files = (/** @type {Record<string, string>} */ contents) => (/** @type {string} */ path) => {
  if (!(path in contents)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return contents[path];
};

test("a tree's PSS, anonymous and file-backed memory are the sums of its processes'; each keeps its peak RSS", () => {
  const memory = treeMemory(
    [10, 11],
    files({
      '/proc/10/smaps_rollup': rollup(1000),
      '/proc/10/status': status(4000),
      '/proc/11/smaps_rollup': rollup(24),
      '/proc/11/status': status(50),
    }),
  );
  assert.deepEqual(memory, {
    pssBytes: 1024 * 1024,
    anonBytes: 1008 * 1024,
    fileBytes: 16 * 1024,
    processes: [
      { pid: 10, pssBytes: 1000 * 1024, anonBytes: 992 * 1024, fileBytes: 8 * 1024, peakRssBytes: 4000 * 1024 },
      { pid: 11, pssBytes: 24 * 1024, anonBytes: 16 * 1024, fileBytes: 8 * 1024, peakRssBytes: 50 * 1024 },
    ],
  });
  // a kernel without Pss_Anon: its Anonymous line, which is not split among sharers
  const older = treeMemory([12], files({ '/proc/12/smaps_rollup': 'Pss: 100 kB\nAnonymous: 90 kB\n' }));
  assert.equal(older.anonBytes, 90 * 1024);
  assert.equal(older.fileBytes, null);
  assert.equal(
    anonymousBytes(12, files({ '/proc/12/smaps_rollup': 'Pss: 100 kB\nPss_Anon: 70 kB\nAnonymous: 90 kB\n' })),
    70 * 1024,
  );
  assert.equal(anonymousBytes(13, files({})), null);
});

test("a process's main malloc heap is its [heap] mapping's Anonymous; 0 without one, null unread", () => {
  const smaps = [
    '00400000-00500000 r-xp 00000000 fd:00 1 /usr/bin/node',
    'Anonymous:             4 kB',
    'VmFlags: rd ex',
    '05000000-07000000 rw-p 00000000 00:00 0                                  [heap]',
    'Rss:               30000 kB',
    'Anonymous:         28672 kB',
    'VmFlags: rd wr',
    '7f0000000000-7f0004000000 rw-p 00000000 00:00 0 ',
    'Anonymous:         65536 kB',
    'VmFlags: rd wr',
    '',
  ].join('\n');
  assert.equal(mainHeapBytes(12, files({ '/proc/12/smaps': smaps })), 28 * 2 ** 20);
  assert.equal(mainHeapBytes(12, files({ '/proc/12/smaps': smaps.replace(' [heap]', '') })), 0);
  assert.equal(mainHeapBytes(13, files({})), null);
  // this process's own, read from /proc
  assert.ok(/** @type {number} */ (mainHeapBytes(process.pid)) > 0);
});

test('where the kernel does not say, the figure is null and the reason is a few words', () => {
  assert.deepEqual(treeMemory([10], files({})), {
    pssBytes: null,
    processes: [],
    unavailable: 'no /proc/PID/smaps_rollup on this kernel (4.14 or later has it)',
  });
  const hidden = () => {
    throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
  };
  assert.equal(treeMemory([10], hidden).unavailable, '/proc hides other processes here (hidepid)');
  assert.equal(
    treeMemory([10], files({ '/proc/10/smaps_rollup': 'Rss: 1 kB\n' })).unavailable,
    'smaps_rollup has no Pss line',
  );
  // the peak is a detail: PSS stands without it
  assert.deepEqual(treeMemory([10], files({ '/proc/10/smaps_rollup': rollup(8) })).processes, [
    { pid: 10, pssBytes: 8 * 1024, anonBytes: 0, fileBytes: 8 * 1024, peakRssBytes: null },
  ]);
});

test('a live process reads as more than nothing, its peak at least what it holds', async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  try {
    const memory = treeMemory([/** @type {number} */ (child.pid)]);
    assert.equal(memory.unavailable, undefined);
    assert.ok(/** @type {number} */ (memory.pssBytes) > 0);
    const [one] = memory.processes;
    assert.ok(/** @type {number} */ (one.peakRssBytes) >= one.pssBytes);
  } finally {
    child.kill();
  }
});
