import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketLabel } from '../../src/report/trace-model.js';
import { traceReading as reading } from '../../src/report/sentences.js';

test("bucket labels read like bpftrace's log2 histogram", () => {
  assert.equal(bucketLabel({ lowNs: 1024, highNs: 2047 }), '[1K, 2K)');
  assert.equal(bucketLabel({ lowNs: 512, highNs: 1023 }), '[512, 1K)');
  assert.equal(bucketLabel({ lowNs: 2 ** 21, highNs: 2 ** 22 - 1 }), '[2M, 4M)');
  assert.equal(bucketLabel({ lowNs: 0, highNs: 0 }), '0');
  assert.equal(bucketLabel({ lowNs: null, highNs: -1 }), '< 0');
});

const stats = (median, ci95) => ({ median, ci95 });

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
