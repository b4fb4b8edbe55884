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
