// The end of compare and sweep, in the order a CI log wants it: the tables, the saved file, the
// exports, GitHub's step summary, and last the gate's outcome, which sets the exit code.
import { appendFileSync } from 'node:fs';
import { MmapbenchError } from '../errors.js';
import { writeExports } from '../saved/export.js';
import { asSaved, saveDocument, savedLine, shown } from '../saved/save.js';
import { ratioGate, stepSummary } from '../document/gate.js';
import { formatCI, pct, shortBudgetText } from '../document/sentences.js';
import { straysText } from '../document/measured.js';
import { ratioStats, roundRatio } from '../stats/ratio.js';
import { halfWidth } from '../stats/stopping.js';
import { kindOf, render } from '../kinds/index.js';
import { phaseLines, roundCost } from '../models/phases.js';

/** @typedef {import('./typed-options.js').Output} Output */

/**
 * The gate of a compare or sweep that completed, for its document: null without --fail-below,
 * or when the run failed or was interrupted (its error is the outcome then).
 * @param {any} document  the document, before it is printed and saved
 * @param {Output['gate']} request
 * @param {{ fixedRounds: boolean }} run
 */
export function gateOf(document, request, { fixedRounds }) {
  if (!request || document.status !== 'complete') return null;
  const points = kindOf(document).points?.(document) ?? [];
  return ratioGate(
    points.map(({ id, label, ratio, seconds }) => ({
      id,
      label,
      ratio,
      seconds: seconds ?? 0,
    })),
    { ...request, aa: document.aa ?? null, fixedRounds },
  );
}

/**
 * Prints and keeps a finished (or stopped) run, then ends it as its gate says.
 * @param {any} measured  the document, with `gate` from gateOf when one was asked for
 * @param {Output} output
 * @param {{ runError: Error | null | undefined, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream,
 *   kept?: import('../saved/save.js').Keeper | null }} run  kept: the file the run kept as it went
 */
export function finishRun(measured, output, { runError, stdout, stderr, kept = null }) {
  // saved before it is printed, so that a save that failed (a full disk) is in what is printed,
  // as the exit code says: the --json document of a run that could not keep its results
  const saved = saveDocument(measured, output.save, runError, kept);
  const document = asSaved(measured, saved, runError);
  const kind = kindOf(document);
  stdout.write(render(document, output.format, stdout, { verbose: output.verbose }));
  if (output.verbose)
    for (const line of verboseLines(kind.points?.(document) ?? [], document)) stderr.write(`${line}\n`);
  const strays = straysText(document);
  if (strays) stderr.write(`mmapbench: warning: ${strays}\n`);
  // saves, then passes on the run's own error: no exports, summary or gate for a broken run
  savedLine(saved, runError, stderr);
  for (const file of writeExports([{ kind, path: 'this run', document }], output.exports))
    stderr.write(`mmapbench: exported ${shown(file)}\n`);
  appendSummary(
    () => ({
      title: `mmapbench ${kind.title(document)}`,
      verdict: document.verdict?.text ?? null,
      gate: document.gate ?? null,
      tables: render(document, 'markdown'),
    }),
    stderr,
  );
  // kept and exported like any run, then told apart from one that answered
  if (document.shortBudget?.counted === 0)
    throw new MmapbenchError(shortBudgetText(document.shortBudget, document.seconds), { kind: 'budget' });
  /** @type {import('../document/gate.js').Gate | null} */
  const gate = document.gate ?? null;
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
 * @param {import('../document/gate.js').Gate} gate
 * @param {NodeJS.WritableStream} stderr
 */
export function endWithGate(gate, stderr) {
  if (gate.outcome === 'fail') throw new MmapbenchError(gate.line, { kind: 'gate-failed' });
  if (gate.outcome === 'inconclusive' && gate.failInconclusive)
    throw new MmapbenchError(gate.line, { kind: 'gate-inconclusive' });
  stderr.write(`mmapbench: ${gate.line}\n`);
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
 * What --verbose adds after the tables: where a round's time went; a point's phases in full
 * when the run has one, else a line per point.
 * @param {import('../points/points.js').Point[]} points
 * @param {any} document
 * @returns {string[]}
 */
function verboseLines(points, document) {
  if (points.length > 1)
    return points.flatMap((point) => (point.phases ? [`mmapbench: ${point.label}: ${roundCost(point.phases)}`] : []));
  const [{ phases }] = points;
  if (!phases) return [];
  return phaseLines(phases, document.aa ? ['A', 'B'] : Object.keys(phases.modes));
}
