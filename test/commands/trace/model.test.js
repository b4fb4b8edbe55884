import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketLabel } from '../../../src/commands/trace/model.js';
import { syscallReading, timeShareReading, traceReading as reading } from '../../../src/commands/trace/model.js';
import { traceModel } from '../../../src/commands/trace/model.js';

test("bucket labels read like bpftrace's log2 histogram", () => {
  assert.equal(bucketLabel({ lowNs: 1024, highNs: 2047 }), '[1K, 2K)');
  assert.equal(bucketLabel({ lowNs: 512, highNs: 1023 }), '[512, 1K)');
  assert.equal(bucketLabel({ lowNs: 2 ** 21, highNs: 2 ** 22 - 1 }), '[2M, 4M)');
  assert.equal(bucketLabel({ lowNs: 0, highNs: 0 }), '0');
  assert.equal(bucketLabel({ lowNs: null, highNs: -1 }), '< 0');
});

// ratio statistics as ratioStats gives them; printed beside an interval is its centre, the geomean
const stats = (centre, ci95) => ({ median: centre, geomean: centre, ci95 });

test('the reading follows the interval of the per-acquisition ratio', () => {
  assert.match(
    reading({ avgWrite: stats(17, [12, 25]), totalWrite: stats(40, [30, 50]) }),
    /^workers waited 17\.00x longer .*95% CI 12\.00-25\.00\); in total 40\.00x: they queue on one shared mmap_lock$/,
  );
  assert.match(reading({ avgWrite: stats(0.5, [0.3, 0.8]), totalWrite: null }), /^workers waited less than procs/);
  assert.match(
    reading({ avgWrite: stats(1.2, [0.5, 3]), totalWrite: null }),
    /^no significant difference .*spans 1.*more --rounds/,
  );
  assert.match(reading({ avgWrite: stats(3, null), totalWrite: null }), /one round: run --rounds 3/);
  assert.match(reading({ avgWrite: null, totalWrite: null }), /nothing to compare/);
});

test('beside its interval the reading prints the interval centre, not the median', () => {
  const skewed = { median: 0.01, geomean: 0.06, ci95: [0.001, 20] };
  assert.match(reading({ avgWrite: skewed, totalWrite: null }), /: 0\.06x \(95% CI 0\.00-20\.00 spans 1\)/);
});

test('the by-syscall reading names the call most of the write wait is under, and what it means', () => {
  const rows = [
    { name: 'mprotect', count: 30, totalNs: 710 },
    { name: 'munmap', count: 60, totalNs: 200 },
    { name: 'brk', count: 10, totalNs: 90 },
  ];
  assert.equal(
    syscallReading('workers', rows),
    'workers: 71% of the write wait (30% of write acquisitions) is under mprotect (changing page protections: glibc growing a thread arena’s heap, or V8 switching its code pages between writable and executable)',
  );
  assert.equal(syscallReading('procs', []), null);
});

/** A compare's trace section with the by-syscall sums of `cells` traced cells per mode. */
const traced = (timeShare) => ({
  bpftrace: { version: 'v0.17.0' },
  script: 'mmap-lock.bt',
  window: 'cell',
  ratios: null,
  published: { source: 'the investigation', workers: {}, procs: {}, ratios: { totalWrite: {}, avgWrite: {} } },
  modes: Object.fromEntries(
    ['workers', 'procs'].map((mode, i) => [
      mode,
      {
        cells: 2,
        throughput: { median: 1 },
        observer: 1,
        write: { count: 10, totalNs: 1000, avgNs: 100, maxNs: 500, histogram: [] },
        read: { count: 4, totalNs: 40, avgNs: 10, maxNs: 20, histogram: [] },
        trylockFailed: 0,
        writeHoldNs: 0,
        processes: { round: 1, list: [] },
        bySyscall: {
          write: [
            { syscall: 10, name: 'mprotect', count: 12 + i * 4, totalNs: 1500 },
            { syscall: null, name: 'none: kernel work', count: 8, totalNs: 500 },
          ],
          read: [{ syscall: null, name: 'none: page faults', count: 8, totalNs: 80 }],
        },
        timeShare: timeShare[mode],
      },
    ]),
  ),
});

test('the by-syscall tables give each call per cell (sum over cells / cells), both modes and their ratio', () => {
  const model = traceModel({ trace: traced({ workers: null, procs: null }), ratio: null });
  const writes = model.tables.find((table) => table.head[0].startsWith('writes by syscall'));
  assert.deepEqual(writes.head, [
    'writes by syscall in flight (mean per cell)',
    'workers',
    'wait',
    'procs',
    'wait',
    'w/p',
  ]);
  assert.deepEqual(writes.rows, [
    ['mprotect', '6', '750 ns', '8', '750 ns', '0.75x'],
    ['none: kernel work', '4', '250 ns', '4', '250 ns', '1.00x'],
  ]);
  const reads = model.tables.find((table) => table.head[0].startsWith('reads by syscall'));
  assert.deepEqual(reads.rows[0].slice(0, 2), ['none: page faults', '4']);
});

test('time on the lock is set beside the throughput gap, as an upper bound', () => {
  const trace = traced({
    workers: { write: 0.003, read: 0.0001, windowNs: 1e9 },
    procs: { write: 0.0001, read: 0, windowNs: 1e9 },
  });
  const line = timeShareReading(trace, ['workers', 'procs'], { geomean: 0.92 });
  assert.match(line, /workers waited 0\.30% of their time on mmap_lock for write, 0\.010% for read/);
  assert.match(line, /procs waited 0\.010% of their time/);
  assert.match(
    line,
    /throughput gap 8\.0% \(workers\/procs 0\.92\): removing every wait could win the workers at most ~0\.3 points of it; an upper bound/,
  );
  assert.match(
    timeShareReading(trace, ['workers', 'procs'], { geomean: 1.1 }),
    /workers were not slower .* explain no gap/,
  );
  assert.equal(timeShareReading(traced({ workers: null, procs: null }), ['workers', 'procs'], null), null);
});
