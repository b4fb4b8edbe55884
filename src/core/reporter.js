// What a command tells whoever runs it while it runs. The core writes to no stream: it reports
// warnings, notes and progress to a Reporter, which the CLI draws on stderr (cli/terminal.js)
// and the API hands to its caller's callbacks (api.js). A run's warnings are also data: the
// document it returns and saves holds them (`warnings`).

/**
 * A warning: a code a program can test, and the sentence the CLI prints after `warning:`.
 * The codes: `oversubscribed` (k above the usable CPUs), `timeout` (a cell's duration close to
 * its timeout), `machine-busy` (other work competing), `task-changed` (a resumed run's task
 * module changed, --force), `unlocked` (a file or folder that could not be locked), `save-failed`
 * (a save while the run went on; it measures on), `strays` (processes the run left behind).
 * @typedef {{ code: string, text: string }} Warning
 */

/**
 * @typedef {object} ProgressEvent  one cell finished
 * @property {string} command
 * @property {number} round  the round it belongs to
 * @property {'workers'|'procs'} mode
 * @property {string} [point]  a sweep's or advise's point
 * @property {{ ratio: number, halfWidth: number | null } | null} soFar  compare: the ratio of the
 *   complete rounds so far, and its relative half-width once there are 3
 * @property {string} [label]  reproduce's: the cell in words, as its progress line shows it
 *
 * @typedef {object} Estimate  what a run expects, said once before its first cell
 * @property {number} cells
 * @property {number} expectedSeconds
 * @property {number} budgetSeconds  at most this long (Infinity when the rounds are fixed)
 * @property {string | null} [aa]  an A/A run's mode: its ratio is A/B
 * @property {Map<string, string>} [labels]  a sweep's points in full, by id
 * @property {boolean} [sequential]  the run stops once its verdict decides: its rounds so far are
 *   shown with the interval its rule looks through
 *
 * @typedef {object} Reporter
 * @property {(warning: Warning) => void} warn
 * @property {(line: string) => void} say  a note on the way: a release installed, a resumed
 *   run's rounds, a sweep's plan
 * @property {(estimate: Estimate) => void} start  before the first cell
 * @property {(event: ProgressEvent, round?: import('../run/scheduler.js').Round,
 *   point?: { id: string }) => void} cell  after every cell (the round and point it is of: not
 *   reproduce's)
 * @property {(cells: number) => void} [grow]  more cells than estimated: a round more (reproduce)
 * @property {() => void} stop  after the last cell, however the run ended
 *
 * @typedef {object} Context  what a command runs with besides its options
 * @property {AbortSignal} [interrupt]  aborted on the first SIGINT/SIGTERM/SIGHUP, or by the
 *   API's `signal`
 * @property {Reporter} [reporter]  where its warnings and progress go; none: nowhere
 */

/** @type {Reporter} */
export const SILENT = { warn() {}, say() {}, start() {}, cell() {}, stop() {} };

/**
 * A reporter that also keeps the warnings it passes on, once each, for the run's document.
 * @param {Reporter} [reporter]
 * @returns {Reporter & { warnings: Warning[] }}
 */
export function keepingWarnings(reporter = SILENT) {
  /** @type {Warning[]} */
  const warnings = [];
  return {
    ...reporter,
    warnings,
    warn(warning) {
      if (warnings.some((one) => one.code === warning.code && one.text === warning.text)) return;
      warnings.push(warning);
      reporter.warn(warning);
    },
  };
}
