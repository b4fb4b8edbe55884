// The end of compare and sweep, in the order a CI log wants it: the tables, the saved file, the
// exports, GitHub's step summary, and last the gate's outcome, which sets the exit code.
import { appendFileSync } from 'node:fs';
import { MmapbenchError } from '../errors.js';
import { pointsOf } from '../results/diff.js';
import { writeExports } from '../results/export.js';
import { keepResults, shown } from '../results/save.js';
import { ratioGate, stepSummary } from '../report/gate.js';
import { formatCI, pct, shortBudgetText } from '../report/sentences.js';
import { ratioStats, roundRatio } from '../stats/ratio.js';
import { halfWidth } from '../stats/stopping.js';
import { render } from '../view/index.js';
import { phaseLines, roundCost } from '../report/phases.js';

/** @typedef {import('./typed-options.js').Output} Output */

/** A run's document as `report` and `diff` would load it from its file. */
const live = (/** @type {'measure'|'sweep'} */ kind, /** @type {any} */ document) =>
  /** @type {import('../results/load.js').Saved} */ ({ kind, path: 'this run', document });

/**
 * The gate of a compare or sweep that completed, for its document: null without --fail-below,
 * or when the run failed or was interrupted (its error is the outcome then).
 * @param {'measure'|'sweep'} kind
 * @param {any} results  the document, before it is printed and saved
 * @param {Output['gate']} request
 * @param {{ fixedRounds: boolean }} run
 */
export function gateOf(kind, results, request, { fixedRounds }) {
  if (!request || results.status !== 'complete') return null;
  const labels = pointsOf(live(kind, results)).map((point) => point.label);
  const points =
    kind === 'sweep'
      ? results.points.map((/** @type {any} */ point, /** @type {number} */ i) => ({
          id: point.id,
          label: labels[i],
          ratio: point.ratio,
          seconds: point.seconds,
        }))
      : [{ id: 'p1', label: labels[0], ratio: results.ratio, seconds: results.seconds }];
  return ratioGate(points, { ...request, aa: results.aa ?? null, fixedRounds });
}

/**
 * Prints and keeps a finished (or stopped) run, then ends it as its gate says.
 * @param {'measure'|'sweep'} kind
 * @param {any} results  with `gate` from gateOf when one was asked for
 * @param {Output} output
 * @param {{ runError: Error | null | undefined, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream,
 *   kept?: import('../results/save.js').Keeper | null }} run  kept: the file the run kept as it went
 */
export function finishRun(kind, results, output, { runError, stdout, stderr, kept = null }) {
  stdout.write(render(kind, results, output.format, stdout));
  if (output.verbose) for (const line of verboseLines(kind, results)) stderr.write(`${line}\n`);
  // saves, then passes on the run's own error: no exports, summary or gate for a broken run
  keepResults(results, output.save, runError, stderr, kept);
  for (const file of writeExports([live(kind, results)], output.exports))
    stderr.write(`mmapbench: exported ${shown(file)}\n`);
  appendStepSummary(kind, results, stderr);
  // kept and exported like any run, then told apart from one that answered
  if (results.shortBudget?.counted === 0)
    throw new MmapbenchError(shortBudgetText(results.shortBudget, results.seconds), { kind: 'budget' });
  /** @type {import('../report/gate.js').Gate | null} */
  const gate = results.gate ?? null;
  if (!gate) {
    if (output.ci)
      stderr.write(
        'mmapbench: no gate: add --fail-below RATIO to make this job fail when threads fall behind processes\n',
      );
    return;
  }
  endWithGate(gate, stderr);
}

/**
 * The gate's line, last: printed when it lets the job pass, else the error that sets exit code
 * 4 (failed) or 5 (inconclusive, with --fail-inconclusive), which bin/ prints the same way.
 * @param {import('../report/gate.js').Gate} gate
 * @param {NodeJS.WritableStream} stderr
 */
export function endWithGate(gate, stderr) {
  if (gate.outcome === 'fail') throw new MmapbenchError(gate.line, { kind: 'gate-failed' });
  if (gate.outcome === 'inconclusive' && gate.failInconclusive)
    throw new MmapbenchError(gate.line, { kind: 'gate-inconclusive' });
  stderr.write(`mmapbench: ${gate.line}\n`);
}

/**
 * A compare's or sweep's step summary: its verdict, gate and tables.
 * @param {'measure'|'sweep'} kind
 * @param {any} results
 * @param {NodeJS.WritableStream} stderr
 */
function appendStepSummary(kind, results, stderr) {
  const task = kind === 'sweep' ? '' : ` ${results.config.task.name}, k=${results.config.k}`;
  appendSummary(
    () => ({
      title: `mmapbench ${results.command}${task}`,
      verdict: results.verdict?.text ?? null,
      gate: results.gate ?? null,
      tables: render(kind, results, 'markdown'),
    }),
    stderr,
  );
}

/**
 * GitHub shows the markdown a step appends to the file $GITHUB_STEP_SUMMARY names. A summary
 * that cannot be written is a warning: the run and its files are what matter.
 * @param {() => Parameters<typeof stepSummary>[0]} parts  built only when there is a summary
 * @param {NodeJS.WritableStream} stderr
 */
export function appendSummary(parts, stderr) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, stepSummary(parts()));
  } catch (error) {
    stderr.write(
      `mmapbench: warning: could not append to $GITHUB_STEP_SUMMARY ${file} (${error.code ?? error.message})\n`,
    );
  }
}

/**
 * `--ci`'s log: a line per finished round, with the interval so far, instead of a progress bar.
 * @param {NodeJS.WritableStream} stderr
 * @param {{ aa?: string | null, labels?: Map<string, string> }} [options]  labels: a sweep's points
 *   by id, named in full as its gate and exports name them (pointLabel)
 * @returns {(round: import('../run/scheduler.js').Round, point?: { id: string }) => void}  called
 *   after every cell; prints once the round holds both modes
 */
export function roundLines(stderr, { aa = null, labels = new Map() } = {}) {
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
    if (round.pilot) {
      stderr.write(
        `${at}: ${subject} ${roundRatio(round).toFixed(2)}; a pilot: it sized the cells, and counts in no figure\n`,
      );
      return;
    }
    seen.ratios.push(roundRatio(round));
    const stats = ratioStats(seen.ratios);
    // as the tables print it: no interval from fewer than 3 rounds, where it means nothing
    const sofar =
      stats.ci95 && stats.n >= 3
        ? `${stats.geomean.toFixed(2)} (${formatCI(stats.ci95)}, ${pct(/** @type {number} */ (halfWidth(stats.ci95)))})`
        : stats.geomean.toFixed(2);
    const seconds = Math.round((performance.now() - started) / 1000);
    stderr.write(`${at}: ${subject} ${seen.ratios.at(-1)?.toFixed(2)}; so far ${sofar}; ${seconds} s\n`);
  };
}

/**
 * What --verbose adds after the tables: where a round's time went; for a sweep, a line per point.
 * @param {'measure'|'sweep'} kind
 * @param {any} results
 * @returns {string[]}
 */
function verboseLines(kind, results) {
  if (kind === 'sweep') {
    const labels = pointsOf(live(kind, results)).map((point) => point.label);
    return results.points.flatMap((/** @type {any} */ point, /** @type {number} */ i) =>
      point.phases ? [`mmapbench: ${labels[i]}: ${roundCost(point.phases)}`] : [],
    );
  }
  if (!results.phases) return [];
  const names = results.aa ? ['A', 'B'] : Object.keys(results.phases.modes);
  return phaseLines(results.phases, names);
}
