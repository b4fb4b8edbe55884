// The --verbose breakdown of a round's time: each phase of a cell, mean over the run, and how
// much of a round the timed windows were.
import { PHASES } from '../stats/phases.js';
import { seconds } from '../words/numbers.js';
import { plural } from '../words/lists.js';

const HEADINGS = [...PHASES, 'between', 'cell'];

/**
 * A row per phase and a column per mode, so it fits 80 columns whatever the names.
 * @param {import('../stats/phases.js').PhasesSummary} summary
 * @param {string[]} names  what the modes are called (workers, procs; A, B), in the summary's order
 * @returns {string[]}  lines, each starting `mmapbench:`
 */
export function phaseLines(summary, names) {
  const modes = Object.keys(summary.modes);
  const keys = [...PHASES.map((name) => `${name}Ns`), 'betweenNs', 'totalNs'];
  const ms = (/** @type {number} */ ns) => (ns / 1e6).toFixed(ns < 1e7 ? 1 : 0);
  const rows = [
    ['phase', ...modes.map((mode, i) => names[i] ?? mode)],
    ...keys.map((key, row) => [HEADINGS[row], ...modes.map((mode) => ms(summary.modes[mode][key]))]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return [
    `mmapbench: where a round's time went (ms per cell, mean of ${plural(summary.rounds, 'round')}):`,
    ...rows.map(
      (row) =>
        `mmapbench:   ${row.map((cell, i) => (i ? cell.padStart(Math.max(widths[i], 7)) : cell.padEnd(widths[i]))).join('  ')}`,
    ),
    `mmapbench:   ${roundCost(summary)}`,
  ];
}

/**
 * What a round took, and how much of it the timed windows were.
 * @param {import('../stats/phases.js').PhasesSummary} summary
 */
export function roundCost(summary) {
  const share = Math.round((100 * summary.windowsNs) / summary.roundNs);
  return `a round took ${seconds(summary.roundNs)}: timed windows ${seconds(summary.windowsNs)} (${share}%), the rest ${seconds(summary.overheadNs)}`;
}
