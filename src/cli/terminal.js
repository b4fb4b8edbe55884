// The CLI's reporter: a run's warnings and notes as lines on stderr, its progress as a bar, or
// with --ci as a line per finished round (what a CI log keeps).
import { percentText } from '../words/spelling.js';
import { startProgress } from '../view/progress.js';
import { formatCI, lookClause, pct } from '../document/sentences.js';
import { ratioStats, roundRatio } from '../stats/ratio.js';
import { halfWidth } from '../stats/stopping.js';
import { soFarInterval } from '../stats/sequential.js';

/**
 * @param {NodeJS.WritableStream} stderr
 * @param {{ ci?: boolean }} [how]  ci: a line per round instead of a bar
 * @returns {import('../core/reporter.js').Reporter}
 */
export function terminalReporter(stderr, { ci = false } = {}) {
  /** @type {ReturnType<typeof startProgress> | null} */
  let progress = null;
  /** @type {ReturnType<typeof roundLines> | null} */
  let roundLine = null;
  let subject = 'w/p';
  return {
    warn: ({ text }) => void stderr.write(`mmapbench: warning: ${text}\n`),
    say: (line) => void stderr.write(`mmapbench: ${line}\n`),
    start({ cells, expectedSeconds, budgetSeconds, aa = null, labels, sequential = false }) {
      subject = aa ? 'A/B' : 'w/p';
      roundLine = ci ? roundLines(stderr, { aa, labels, sequential }) : null;
      progress = startProgress({
        cells,
        expectedSeconds: roundLine ? 0 : expectedSeconds,
        budgetSeconds,
        stream: stderr,
      });
    },
    cell({ round, mode, point, soFar, label }, cell, at) {
      if (cell) roundLine?.(cell, at);
      // the rounds as they finish: the ratio so far and its interval
      const ratio = soFar
        ? `, ${subject} ${soFar.ratio.toFixed(2)}${soFar.halfWidth === null ? '' : ` ${pct(soFar.halfWidth)}`}`
        : '';
      progress?.tick({ label: label ?? `round ${round} ${point ? `${point} ` : ''}${mode}${ratio}` });
    },
    grow: (cells) => progress?.grow(cells),
    stop() {
      progress?.stop();
      progress = null;
    },
  };
}

/**
 * `--ci`'s log: a line per finished round, with the interval so far, instead of a progress bar.
 * @param {NodeJS.WritableStream} stderr
 * @param {{ aa?: string | null, labels?: Map<string, string>, sequential?: boolean }} [options]  labels: a
 *   sweep's points by id, named in full as its gate and exports name them (pointLabel); sequential:
 *   the run stops once decided, and its lines show the interval its rule looks through
 * @returns {(round: import('../run/scheduler.js').Round, point?: { id: string }) => void}  called
 *   after every cell; prints once the round holds both modes
 */
export function roundLines(stderr, { aa = null, labels = new Map(), sequential = false } = {}) {
  const started = performance.now();
  /** @type {Map<string, { ratios: number[], last: number }>} */
  const points = new Map();
  const subject = aa ? 'A/B' : 'workers/procs';
  return (round, point) => {
    const { workers, procs } = round.cells;
    const key = point?.id ?? '';
    const seen = points.get(key) ?? { ratios: [], last: 0 };
    points.set(key, seen);
    // once per round: a traced run's round has more cells after its two untraced ones
    if (!workers || !procs || seen.last === round.index) return;
    seen.last = round.index;
    const at = `mmapbench: round ${round.index}${point ? ` (${labels.get(point.id) ?? point.id})` : ''}`;
    if (round.scheduled) {
      seen.ratios = [];
      stderr.write(
        `${at}: ${subject} ${roundRatio(round).toFixed(2)}; windows of one tree held ${percentText(round.scheduled.windows)} of the rounds' spread: windows ${round.scheduled.scale}x as long from here, and the rounds so far count in no figure\n`,
      );
      return;
    }
    if (round.pilot) {
      stderr.write(
        `${at}: ${subject} ${roundRatio(round).toFixed(2)}; a pilot: it sized the cells, and counts in no figure\n`,
      );
      return;
    }
    seen.ratios.push(roundRatio(round));
    const { geomean } = ratioStats(seen.ratios);
    const shown = soFarInterval(seen.ratios, sequential);
    const sofar = shown
      ? `${geomean.toFixed(2)} (${formatCI(shown.interval, shown)}${lookClause(shown.look)}, ${pct(/** @type {number} */ (halfWidth(shown.interval)))})`
      : geomean.toFixed(2);
    const seconds = Math.round((performance.now() - started) / 1000);
    stderr.write(`${at}: ${subject} ${seen.ratios.at(-1)?.toFixed(2)}; so far ${sofar}; ${seconds} s\n`);
  };
}
