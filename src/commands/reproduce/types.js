// What a reproduce run keeps: its options and its results document (docs/json.md), as types.

/**
 * @typedef {object} ReproduceOptions  what a run was asked for, kept in its document
 * @property {number} k
 * @property {boolean} quick
 * @property {number|null} rounds  fixed rounds, or null: ROUNDS.min, then until every claim's
 *   interval is within ±precision, at most maxRounds
 * @property {number | null} [precision]  the relative half-width every claim's interval must reach
 *   (--precision); null: the run stops once every claim is decided (files saved before: 0.05)
 * @property {number} maxRounds
 * @property {number} duration  seconds per cell when not quick
 * @property {number} timeout
 * @property {string|undefined} node
 * @property {string|undefined} fixturesDir
 * @property {string|undefined} jemalloc
 * @property {string} thpPath
 * @property {string[]} experiments
 * @property {'fresh'|'steady'|'published'|'both'} [protocol]  how cells are measured and read (protocols.js)
 *
 * @typedef {{ label: string, path: string | null, version: string | null, hasOption: boolean,
 *   why: string | null, install?: string }} FixNode  a Node node-fix runs on: why it has no path
 *   (not installed, offline) or lacks readFileSync's buffer option; install: the release a run
 *   would install first (--list looks in the cache only)
 *
 * @typedef {{ type: 'cell', experiment: string, variant: string, round: number,
 *   mode: 'workers'|'procs', cell: import('../../stats/cell-summary.js').CellResult }} CellRecord
 * @typedef {{ type: 'calibration', experiment: string, variant: string, iterations: number,
 *   warmup: import('../../run/plan.js').Warmup, calibration: import('../../run/calibrate.js').Calibration }} CalibrationRecord
 * @typedef {CellRecord | CalibrationRecord} ResultRecord
 *
 * A reproduce run's results document (docs/json.md), written whole after every round.
 * @typedef {{ mmapbench: string, schema: number, command: 'reproduce', started: string,
 *   options: ReproduceOptions, environment: import('../../document/document.js').Environment,
 *   jemalloc: string | null, nodes: FixNode[], records: ResultRecord[],
 *   skipped: Array<{ name: string, reason: string }>,
 *   status: 'complete'|'incomplete'|'failed'|'interrupted',
 *   error: { kind: string, message: string, worker: string | null } | null }} ReproduceDocument
 *   nodes: what node-fix ran on (none without --node)
 */

export {};
