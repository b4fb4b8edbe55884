import { median } from 'simple-statistics';
import { ratioStats } from '../../stats/ratio.js';
import { lookAt } from '../../stats/sequential.js';

/**
 * The cells one experiment has measured, by variant, round and mode, and the per-round ratios
 * its verdicts are taken from. Every figure pairs cells of the same round only: the runner
 * interleaves every variant and mode within a round, so drift on a noisy machine cancels out of
 * a within-round ratio, and the rounds are the independent samples of the interval. Its intervals
 * are those of the look the run's rule reads them at (stats/sequential.js): a fixed-n 95% one, the
 * confidence sequence valid at every round, or the budget's last look.
 */
/** @typedef {'workers'|'procs'} Mode */

export class ExperimentData {
  /**
   * @param {Array<{ variant: string, round: number, mode: 'workers'|'procs', cell: import('../../stats/cell-summary.js').CellResult }>} cells
   * @param {{ look?: import('../../stats/sequential.js').Look }} [rule]
   */
  constructor(cells, { look = 'fixed' } = {}) {
    this.look = look;
    this.cells = new Map(cells.map((c) => [key(c.variant, c.round, c.mode), c.cell]));
    this.rounds = [...new Set(cells.map((c) => c.round))].sort((a, b) => a - b);
    /** the settings with a cell measured, in the order first seen */
    this.variants = [...new Set(cells.map((c) => c.variant))];
  }

  /** @param {string} variant @param {number} round @param {Mode} mode @returns {number | null} */
  throughput(variant, round, mode) {
    return this.cells.get(key(variant, round, mode))?.throughput ?? null;
  }

  /**
   * One of the task's own figures (a declared metric) in one cell.
   * @param {string} variant @param {number} round @param {Mode} mode @param {string} name
   * @returns {number | null}
   */
  metric(variant, round, mode, name) {
    const value = this.cells.get(key(variant, round, mode))?.metrics?.[name];
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  }

  /**
   * A cell's ops/s, or with `name` that metric of it.
   * @param {string} variant @param {number} round @param {Mode} mode @param {string} [name]
   */
  value(variant, round, mode, name) {
    return name ? this.metric(variant, round, mode, name) : this.throughput(variant, round, mode);
  }

  /**
   * Median ops/s of a variant in one mode over the rounds that measured it; with `name`, of that metric.
   * @param {string} variant @param {Mode} mode @param {string} [name]
   */
  median(variant, mode, name) {
    const values = this.rounds.map((round) => this.value(variant, round, mode, name)).filter((v) => v !== null);
    return values.length ? median(values) : null;
  }

  /**
   * A per-round quantity over the rounds where every operand was measured, as RatioStats.
   * @param {(round: number) => number | null} perRound
   */
  series(perRound) {
    const samples = this.rounds
      .map(perRound)
      .filter(/** @returns {v is number} */ (v) => v !== null && Number.isFinite(v) && v > 0);
    if (!samples.length) return null;
    const stats = ratioStats(samples);
    if (this.look === 'fixed') return stats;
    const { interval, look, confidence } = lookAt(samples, this.look);
    return { ...stats, ci95: interval, look, confidence };
  }

  /**
   * workers / procs of one variant.
   * @param {string} variant
   */
  ratio(variant) {
    return this.series((round) =>
      divide(this.throughput(variant, round, 'workers'), this.throughput(variant, round, 'procs')),
    );
  }

  /**
   * One variant against another in the same mode and round: workers with jemalloc / workers with
   * glibc; with `name`, that metric of each (zips partitioned / whole).
   * @param {string} variant @param {string} base @param {Mode} mode @param {string} [name]
   */
  relative(variant, base, mode, name) {
    return this.series((round) => divide(this.value(variant, round, mode, name), this.value(base, round, mode, name)));
  }

  /**
   * Two metrics of the same cell against each other: promises / callbacks, peak fds through
   * p-limit / through Promise.all. Both were measured side by side in one process tree.
   * @param {string} variant @param {Mode} mode @param {string} name @param {string} base
   */
  withinCell(variant, mode, name, base) {
    return this.series((round) =>
      divide(this.metric(variant, round, mode, name), this.metric(variant, round, mode, base)),
    );
  }

  /**
   * Traced cells: workers / procs of a figure of their write waits (`pick` of the cell's
   * `trace.write`: avgNs, totalNs, count), per round.
   * @param {string} variant
   * @param {(write: import('../../trace/parse.js').LockWaits) => number | null} pick
   */
  lockRatio(variant, pick) {
    const of = (/** @type {number} */ round, /** @type {Mode} */ mode) => {
      const write = this.cells.get(key(variant, round, mode))?.trace?.write;
      return write ? pick(write) : null;
    };
    return this.series((round) => divide(of(round, 'workers'), of(round, 'procs')));
  }

  /**
   * Median over the rounds of a traced figure in one mode.
   * @param {string} variant @param {Mode} mode
   * @param {(write: import('../../trace/parse.js').LockWaits) => number | null} pick
   */
  lockMedian(variant, mode, pick) {
    const values = this.rounds
      .flatMap((round) => this.cells.get(key(variant, round, mode))?.trace?.write ?? [])
      .map(pick)
      .filter((v) => v !== null);
    return values.length ? median(values) : null;
  }

  /**
   * How a variant moves the gap: its workers/procs ratio over the base's.
   * @param {string} variant @param {string} base
   */
  gapChange(variant, base) {
    return this.series((round) =>
      divide(
        divide(this.throughput(variant, round, 'workers'), this.throughput(variant, round, 'procs')),
        divide(this.throughput(base, round, 'workers'), this.throughput(base, round, 'procs')),
      ),
    );
  }
}

const key = (/** @type {string} */ variant, /** @type {number} */ round, /** @type {Mode} */ mode) =>
  `${variant}\u0000${round}\u0000${mode}`;
const divide = (/** @type {number | null} */ a, /** @type {number | null} */ b) =>
  a === null || b === null || !b ? null : a / b;
