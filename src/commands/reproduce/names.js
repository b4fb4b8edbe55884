/**
 * The experiments, in the order they run and are reported: their names alone, so the command
 * line can offer them without loading the statistics behind the verdicts.
 */
export const EXPERIMENT_NAMES = [
  'gap',
  'arena',
  'mmap-threshold',
  'jemalloc',
  'mmap-max',
  'thp',
  'pool-size',
  'pool-grid',
  'reuse',
  'node-fix',
  'async',
  'locks',
  'clog',
  'promises',
  'throttle',
];
