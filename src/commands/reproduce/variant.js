// What one experiment measures and draws, as types: kept apart from the experiments (which
// import the tables that read them), so a table names them without importing the experiments.

/**
 * @typedef {object} Variant  one setting an experiment measures; each round runs every variant
 * @property {string} id  stable key in the results file
 * @property {string} label
 * @property {string} task
 * @property {string} file  a name (med) or size (64k), as --file takes it
 * @property {Record<string, any>} [params]  task parameters (poolSize, concurrency)
 * @property {Record<string, string>} [env]  set in every cell of this variant
 * @property {Array<'workers'|'procs'>} [modes]  both unless given
 * @property {number} [k]  run at this k instead of the run's -k
 * @property {number} [iterations]  fixed ops per cell instead of calibrating to --duration, where
 *   the claim needs that many (a fan-out of 10,000 jobs needs 10,000)
 * @property {number} [quickIterations]  ops per cell under --quick, for a slow op (QUICK_EXPERIMENTS's otherwise)
 * @property {string} [thp]  the THP mode (always, madvise, never) set while its cells run
 * @property {Record<string, unknown>} [published]  the published row it re-checks
 * @property {{ row: string, column: string }} [grid]  its cell in a grid-shaped table
 * @property {boolean} [trace]  its cells run under mmap-lock.bt, whole (startup included), as
 *   the investigation traced them
 * @property {'steady'|'published'} [protocol]  how its cells are measured (protocols.js)
 * @property {string} [node]  the Node binary its cells run on, instead of the run's --node
 *
 * @typedef {{ head: string[], rows: string[][], align?: string[], widths?: number[] }} ExperimentTable
 */

export {};
