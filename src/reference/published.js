// Figures published by the investigation mmapbench re-checks. They are reference data, quoted
// with their source, and never mixed into a measurement.
export const INVESTIGATION = 'platformatic/node-worker-mmap-lock-contention (README)';

/** Hypothesis 8 and step 9: bpftrace on mmap_lock, sync readFileSync, 64 KiB, k=8. */
export const MMAP_LOCK_WAITS = {
  source: `${INVESTIGATION}, Hypothesis 8 (sync, 64 KiB, k=8; procs = 9 PIDs)`,
  workers: { writeCount: 10_572, writeTotalNs: 311e6, writeAvgNs: 29_389, writeMax: '2-4 ms' },
  procs: { writeCount: 4_711, writeTotalNs: 8e6, writeAvgNs: 1_662, writeMax: '1-2 ms (rare)' },
  ratios: {
    // "~40x more in total" and "~17x longer per acquisition"; the independent re-run (step 9)
    // measured 38.7x and 17.6x
    totalWrite: { text: '~40x (re-run 38.7x)', value: 40 },
    avgWrite: { text: '~17x (re-run 17.6x)', value: 17 },
  },
};

/**
 * The tables `mmapbench reproduce` re-checks (README, Hypotheses 1-7 and the step-by-step
 * guide), k=8 on the investigation's machine. ops/s as printed there; ratio = workers/procs.
 */
export const TABLES = {
  gap: {
    source: `${INVESTIGATION}, Hypothesis 1 and step 3 (readFileSync, 64 KiB, k=8)`,
    rows: [{ label: 'readfilesync 64 KiB', workers: 79_027, procs: 146_526, ratio: 0.54 }],
    claim: 'procs are at least 1.4x faster than workers (ratio 0.55-0.65, typically 0.60; validation re-run 0.55-0.64)',
  },
  arena: {
    source: `${INVESTIGATION}, Hypothesis 2 (64 KiB, k=8)`,
    rows: [
      { label: 'default', workers: 76_775, procs: 141_259, ratio: 0.54 },
      { label: 'MALLOC_ARENA_MAX=1', workers: 96_403, procs: 138_477, ratio: 0.7 },
      { label: 'MALLOC_ARENA_MAX=64', workers: 94_128, procs: 153_064, ratio: 0.61 },
    ],
    claim: 'the arena count moves totals but does not close the gap (procs stay faster in every setting)',
  },
  'mmap-threshold': {
    source: `${INVESTIGATION}, Hypothesis 3 (64 KiB, k=8)`,
    rows: [
      { label: 'default', ratio: 0.54 },
      { label: 'MALLOC_MMAP_THRESHOLD_=4096', workers: 30_769, procs: 94_045, ratio: 0.33 },
    ],
    claim: 'forcing every allocation through mmap collapses workers more than procs (the ratio falls)',
  },
  jemalloc: {
    source: `${INVESTIGATION}, Hypothesis 4 and step 8 (k=8)`,
    rows: [
      { label: 'glibc 64 KiB', workers: 85_155, procs: 141_957, ratio: 0.6 },
      { label: 'jemalloc 64 KiB', workers: 90_619, procs: 124_621, ratio: 0.73 },
      { label: 'glibc 8 MiB', workers: 1_515, procs: 1_640, ratio: 0.92 },
      { label: 'jemalloc 8 MiB', workers: 1_144, procs: 1_210, ratio: 0.7 },
    ],
    claim: 'jemalloc helps a little at 64 KiB (5-10%) and regresses at 8 MiB',
  },
  'mmap-max': {
    source: `${INVESTIGATION}, step 6 and its independent validation`,
    rows: [],
    claim:
      'MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=-1 is marginal (5-7% over baseline); an early +30% did not replicate',
  },
  thp: {
    source: `${INVESTIGATION}, Hypothesis 5 and step 7 (64 KiB, k=8)`,
    rows: [
      { label: 'always', workers: 81_774, procs: 139_966, ratio: 0.58 },
      { label: 'madvise', workers: 90_206, procs: 132_356, ratio: 0.68 },
      { label: 'never', workers: 92_394, procs: 145_795, ratio: 0.63 },
    ],
    claim: 'the THP mode makes no difference beyond noise (validation: within 3%)',
  },
  'pool-size': {
    source: `${INVESTIGATION}, Hypothesis 5b (64 KiB, k=8)`,
    rows: [
      { label: '8k (default)', workers: 79_708, procs: 151_100, ratio: 0.53 },
      { label: '256k', workers: 105_031, procs: 130_364, ratio: 0.81 },
      { label: '1m', workers: 90_101, procs: 120_722, ratio: 0.75 },
      { label: '4m', workers: 76_891, procs: 114_283, ratio: 0.67 },
      { label: '16m', workers: 93_264, procs: 107_290, ratio: 0.87 },
    ],
    claim: 'a 256 KiB pool narrows the gap at 64 KiB; pools of 4 MiB and more stop helping',
  },
  'pool-grid': {
    source: `${INVESTIGATION}, Hypothesis 5c (workers ops/s, k=8; columns: pool 8k 16k 32k 64k 128k 256k, then procs)`,
    columns: ['8k', '16k', '32k', '64k', '128k', '256k', 'procs'],
    rows: [
      { label: '512', values: [404e3, 460e3, 453e3, 431e3, 455e3, 446e3, 496e3] },
      { label: '2k', values: [360e3, 382e3, 410e3, 367e3, 417e3, 411e3, 472e3] },
      { label: '4k', values: [326e3, 332e3, 326e3, 360e3, 372e3, 382e3, 413e3] },
      { label: '8k', values: [202e3, 187e3, 208e3, 254e3, 232e3, 271e3, 302e3] },
      { label: '16k', values: [148e3, 147e3, 150e3, 181e3, 189e3, 243e3, 284e3] },
      { label: '64k', values: [86e3, 87e3, 80e3, 87e3, 88e3, 108e3, 142e3] },
      { label: '1m', values: [12e3, 13e3, 12e3, 12e3, 12e3, 13e3, 12e3] },
    ],
    claim: 'a 256 KiB pool never regresses and wins at every multi-KiB size; the 1 MiB row is flat',
  },
  reuse: {
    source: `${INVESTIGATION}, Hypothesis 6 and step 4 (k=8)`,
    rows: [
      { label: 'reuse-buffer 64 KiB', workers: 393_321, procs: 484_380, ratio: 0.81 },
      { label: 'reuse-buffer 1 MiB', workers: 39_133, procs: 35_376, ratio: 1.11 },
    ],
    claim: 'reusing one buffer is several times faster than readFileSync and nearly closes the gap',
  },
  'node-fix': {
    source:
      'nodejs/node#63600 and pull request 63634, "fs: add buffer option to readFileSync" (Node 24.19.0 and 26.4.0), against the investigation\'s mitigation 1 (reuse-buffer, Hypothesis 6: "up to 5x")',
    setup: "no figures are published for the option; reuse-buffer's are in the reuse experiment",
    rows: [],
    claim: "readFileSync's buffer option gives workers what reusing one buffer by hand (openSync/readSync) does",
  },
  async: {
    source: `${INVESTIGATION}, Hypothesis 7 and step 10 (64 KiB, k=8)`,
    rows: [
      { label: 'sync', workers: 79_027, procs: 146_526, ratio: 0.54 },
      { label: 'async serial (C=1)', workers: 35_449, procs: 41_392, ratio: 0.86 },
      { label: 'async parallel (C=8)', workers: 80_216, procs: 60_855, ratio: 1.32 },
    ],
    claim: 'async does not speed workers up; the ratio closes only because async slows procs down',
  },
  clog: {
    source:
      "nodejs/node PR 'fs: partition readFile to avoid threadpool exhaustion' (2017), benchmark/fs/readfile-clogging.js: reads and zips completed in 5 s",
    setup:
      "one node process, 4 libuv threads, reads partitioned at 8 KiB (that Node's kReadFileBufferLength), one 1 KiB deflate in flight; i7-4790 (4C/8T), Linux 4.8",
    // counts in 5 s, as printed there
    rows: [
      { label: '1 KiB, 1 in flight, whole', reads: 92_559, zips: 153_226 },
      { label: '1 KiB, 1 in flight, partitioned', reads: 96_464, zips: 154_582 },
      { label: '1 KiB, 10 in flight, whole', reads: 332_066, zips: 62_739 },
      { label: '1 KiB, 10 in flight, partitioned', reads: 332_932, zips: 62_896 },
      { label: '16 MiB, 1 in flight, whole', reads: 1_554, zips: 98_886 },
      { label: '16 MiB, 1 in flight, partitioned', reads: 149, zips: 149_574 },
      { label: '16 MiB, 10 in flight, whole', reads: 2_759, zips: 703 },
      { label: '16 MiB, 10 in flight, partitioned', reads: 623, zips: 61_745 },
    ],
    seconds: 5,
    claim:
      'partitioning readFile leaves 1 KiB reads unchanged, costs 16 MiB reads (2,759 -> 623 at 10 in flight) and gives the zips queued behind them the threadpool back (703 -> 61,745)',
  },
  promises: {
    source:
      "nodejs/node#63886 'fs: allocate FSReqPromise stat arrays lazily' (open, 2026): promises after / before the fix",
    setup:
      'benchmark/compare.js, 10 samples per setting, and ad-hoc runs with 64 in flight on tmpfs; callbacks unchanged (±3%)',
    rows: [
      { label: 'readFile 1 KiB', gains: { 1: '+3.3%', 10: '+21.0%', 64: '+22%' } },
      { label: 'writeFile 1 KiB', gains: { 1: '+5.2%', 10: '+13.5-18.8%', 64: '+53%' } },
      { label: 'stat', gains: { 1: '+2.2-3.5%', 10: '-', 64: '+26%' } },
    ],
    claim:
      'every promise-based fs call paid for two stat arrays the callback form never allocates: under concurrency promises lose to callbacks by about what the fix gains (+12-21% at 10 in flight, +22-53% at 64)',
  },
  locks: {
    source: `${INVESTIGATION}, Hypothesis 8 (bpftrace on mmap_lock, 64 KiB, k=8, whole runs; procs = 9 PIDs)`,
    setup: 'mmap-lock.bt over whole runs of run-workers.js / run-procs.js (startup included), one run each',
    rows: [
      {
        label: 'readFileSync 64 KiB',
        workers: { writeCount: 10_572, writeTotalNs: 311e6, writeAvgNs: 29_389 },
        procs: { writeCount: 4_711, writeTotalNs: 8e6, writeAvgNs: 1_662 },
      },
      {
        label: 'readFile 64 KiB (C=8)',
        workers: { writeCount: 4_332, writeTotalNs: 89e6, writeAvgNs: 20_642 },
        procs: { writeCount: 2_492, writeTotalNs: 4e6, writeAvgNs: 1_700 },
      },
    ],
    claim:
      'workers wait far longer for mmap_lock than procs: sync ~17x per write acquisition and ~40x in total; async 12x and 22x',
  },
  throttle: {
    source: "Momtchil Momtchev, 'Debugging a common performance pitfall on Node.js' (2021)",
    setup: 'a weather service reading GeoTIFFs through gdal-async, glibc FILE* handles; one run each way',
    rows: [
      { label: 'Promise.all over every job', fds: 47_577, seconds: 115 },
      { label: 'a queue of 16', fds: null, seconds: 9 },
    ],
    claim:
      'an unthrottled Promise.all opens a descriptor per job and jams the event loop; a bounded queue (16) keeps both small and took the run from 115 s to 9 s',
  },
};

/**
 * The investigation's mitigation ranking (README, "TL;DR — Mitigation Ranking"): readFileSync of
 * 64 KiB files on its 4-core, 8-thread i7-7700, Linux 6.8, glibc 2.39, a Node 27 pre-release.
 * `advise` sets it beside what it measured for readfilesync, labelled with this source.
 */
export const MITIGATION_RANKING = {
  source: `${INVESTIGATION}, "TL;DR — Mitigation Ranking" (readFileSync, 64 KiB; i7-7700, 8 threads; glibc 2.39)`,
  tasks: ['readfilesync'],
  rows: [
    {
      fix: 'reuse a Buffer (openSync + readSync into one allocated once)',
      effect: 'up to 5× throughput, gap nearly gone',
    },
    {
      fix: 'Buffer.poolSize per worker (256 KiB for 64 KiB files)',
      effect: '+32% workers throughput, gap 0.53 → 0.81',
    },
    { fix: 'child processes instead of Workers', effect: 'restores the processes’ speed' },
    { fix: 'MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=-1', effect: 'marginal (~5-7%, within noise)' },
    { fix: 'jemalloc (LD_PRELOAD)', effect: 'marginal at 64 KiB, worse at 8 MiB' },
    { fix: 'THP always / never / madvise', effect: 'within noise' },
    { fix: 'async readFile instead of sync', effect: 'workers unchanged, processes slower' },
  ],
};

// How the investigation measured (its run-workers.js FILE 2000 8): 2,000 timed iterations per
// worker and no warmup (reproduce's and compare's --protocol published).
export const PUBLISHED_PROTOCOL = { iterations: 2000, warmup: 0 };
