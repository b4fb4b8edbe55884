// What the CLI prints at the end of compare, sweep and advise, in the order a CI log wants it:
// the tables, the saved file, the exports, GitHub's step summary (with --ci), and last the gate's
// outcome, which sets the exit code. What it prints is what the core returned (core/controller.js).
import { MmapbenchError } from '../errors.js';
import { appendRegularFile, sameFiles } from '../system/safe-fs.js';
import { savedLine, shown } from '../saved/save.js';
import { renderKind } from '../view/index.js';
import { endingError } from '../core/controller.js';
import { terminalReporter } from './terminal.js';
import { about, formatCI, lookClause } from '../document/sentences.js';
import { verdictWords } from '../commands/compare/words.js';
import { pointView } from '../document/points-of.js';
import { plural, fixed, seconds } from '../words/spelling.js';
import { columnLines } from '../view/table.js';
import { commandLine } from '../words/command-line.js';
import { PHASES } from '../stats/phases.js';

/**
 * Runs a command's core with the terminal's reporter, then prints what it kept.
 * @param {(context: import('../core/reporter.js').Context) => Promise<import('../core/controller.js').Finished>} run
 * @param {import('../core/typed-options.js').Output} output
 * @param {import('./context.js').Context} [context]
 */
export async function runPrinted(run, output, { interrupt, stdout = process.stdout, stderr = process.stderr } = {}) {
  const finished = await run({ interrupt, reporter: terminalReporter(stderr, { ci: output.ci }) });
  printRun(finished, output, { stdout, stderr });
  return finished.document;
}

/**
 * Prints a run the core kept, then ends it as its error or its gate says.
 * @param {import('../core/controller.js').Finished} finished
 * @param {import('../core/typed-options.js').Output} output
 * @param {{ stdout: NodeJS.WritableStream & { columns?: number }, stderr: NodeJS.WritableStream }} streams
 */
export function printRun(finished, output, { stdout, stderr }) {
  const { document, saved, exported, runError, kind, written = [], resume } = finished;
  const path = saved && 'path' in saved ? saved.path : undefined;
  stdout.write(renderKind(kind, document, output.format, stdout, { verbose: output.verbose, path }));
  if (output.verbose)
    for (const line of verboseLines(kind.points?.(document) ?? [], document)) stderr.write(`${line}\n`);
  for (const file of written) stderr.write(`mmapbench: wrote ${shown(file)}\n`);
  // the path, then the run's own error (or the save's), whose line comes last: after how to go
  // on with the run, where it says
  if (runError && resume) {
    if (path) stderr.write(`mmapbench: saved ${shown(path)}\n`);
    stderr.write(`mmapbench: to finish the run: ${commandLine(resume)}\n`);
    throw runError;
  }
  savedLine(saved, runError, stderr);
  for (const file of exported) stderr.write(`mmapbench: exported ${shown(file)}\n`);
  if (output.summary)
    appendSummary(
      output.summary,
      [
        ...(saved && 'path' in saved ? [{ path: saved.path, what: `the results file ${saved.path}` }] : []),
        ...exported.map((file) => ({ path: file, what: `the export ${file}` })),
      ],
      () => ({
        title: `mmapbench ${kind.title(document)}`,
        verdict: kind.name === 'compare' && document.points[0].verdict ? verdictWords(pointView(document)) : null,
        gate: document.gate ?? null,
        tables: renderKind(kind, document, 'markdown'),
      }),
      stderr,
    );
  // kept and exported like any run, then told apart from one that answered
  const ending = endingError(finished);
  if (ending) throw ending;
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
  const line = gateLine(gate);
  if (gate.outcome === 'fail') throw new MmapbenchError(line, { kind: 'gate-failed' });
  if (gate.outcome === 'inconclusive' && gate.failInconclusive)
    throw new MmapbenchError(line, { kind: 'gate-inconclusive' });
  stderr.write(`mmapbench: ${line}\n`);
}

/**
 * GitHub shows the markdown a step appends to the file $GITHUB_STEP_SUMMARY names. A summary
 * that cannot be written is a warning: the run and its files are what matter. It was checked
 * against the command's files before the run; checked again here, as a file written since may
 * be it by another name, it is never appended into one of them.
 * @param {string} file  the step summary
 * @param {Array<{ path: string, what: string }>} files  what the command read and wrote
 * @param {() => Parameters<typeof stepSummary>[0]} parts  built only when there is a summary
 * @param {NodeJS.WritableStream} stderr
 */
export function appendSummary(file, files, parts, stderr) {
  const [same] = sameFiles(files, [{ path: file, as: '', what: '' }]);
  if (same) {
    stderr.write(
      `mmapbench: warning: not appended to $GITHUB_STEP_SUMMARY ${file}: it is ${same.other.what}; point it at a file of its own\n`,
    );
    return;
  }
  try {
    const refused = appendRegularFile(file, stepSummary(parts()));
    if (refused)
      stderr.write(
        `mmapbench: warning: not appended to $GITHUB_STEP_SUMMARY ${file}: ${refused}; point it at a file\n`,
      );
  } catch (error) {
    stderr.write(
      `mmapbench: warning: could not append to $GITHUB_STEP_SUMMARY ${file} (${error.code ?? error.message})\n`,
    );
  }
}

/**
 * What --verbose adds after the tables: where a round's time went; a point's phases in full
 * when the run has one, else a line per point.
 * @param {import('../points/points.js').Point[]} points
 * @param {any} document
 * @returns {string[]}
 */
function verboseLines(points, document) {
  if (!points.length) return [];
  if (points.length > 1)
    return points.flatMap((point) => (point.phases ? [`mmapbench: ${point.label}: ${roundCost(point.phases)}`] : []));
  const [{ phases }] = points;
  if (!phases) return [];
  return phaseLines(phases, document.aa ? ['A', 'B'] : Object.keys(phases.modes));
}

// The CI gate in words, drawn from the document's figures (document/gate.js): the line a job's
// log ends with, and the markdown appended to GitHub's step summary (--ci).

/** @typedef {import('../document/gate.js').Gate} Gate */
/** @typedef {import('../document/gate.js').PointJudgement} PointJudgement */

// Beyond this, "run longer" is no advice: the ratio is within noise of the threshold.
const PRACTICAL_SECONDS = 3600;

const OUTCOME_WORDS = /** @type {const} */ ({ pass: 'passed', fail: 'failed', inconclusive: 'inconclusive' });

/**
 * One point's judgement in words: `0.62 (95% CI 0.55-0.70) is below 0.8`.
 * @param {PointJudgement} point
 * @param {{ fixedRounds: boolean, single: boolean }} options  single: the run's only point, so
 *   the suggestion can name the option that gives it the time
 */
function judgementText(point, { fixedRounds, single }) {
  const canRunLonger = point.rounds !== null;
  if (!point.ci95 || point.estimate === null)
    return `${point.estimate === null ? 'no figure' : fixed(point.estimate)}: one round gives no interval${canRunLonger ? '; run at least 2 rounds' : ''}`;
  const figure = `${fixed(point.estimate)} (${formatCI(point.ci95, { confidence: point.confidence })}${lookClause(point.look)})`;
  if (point.outcome === 'pass') return `${figure} is at or above ${point.threshold}`;
  if (point.outcome === 'fail') return `${figure} is below ${point.threshold}`;
  if (point.onThreshold) return `${figure} sits on ${point.threshold}: no run length decides it`;
  if (point.moreSeconds === null || !point.rounds || !point.seconds) return `${figure} straddles ${point.threshold}`;
  if (point.moreSeconds > PRACTICAL_SECONDS)
    return `${figure} straddles ${point.threshold}, so close to it that no practical run decides it (about ${Math.round(point.moreSeconds / 3600)} h more); choose a threshold further from the ratio`;
  const moreRounds = Math.max(1, Math.round(point.moreSeconds / (point.seconds / point.rounds)));
  const option = !single
    ? ''
    : fixedRounds
      ? ` (--rounds ${point.rounds + moreRounds})`
      : ` (--max-time ${Math.ceil(point.seconds + point.moreSeconds)})`;
  return `${figure} straddles ${point.threshold}; about ${about(point.moreSeconds)} more would decide it${option}`;
}

/**
 * The last line of a gated run: the outcome, the rule, and the points that decided it; a file
 * saved with its line keeps that one.
 * @param {Gate} gate
 */
export function gateLine(gate) {
  if (gate.line !== undefined) return gate.line;
  // a change's points have no rounds to add: which option would decide it is not asked
  const fixedRounds = gate.fixedRounds ?? true;
  const note = gate.differences?.length
    ? ` (the runs differ in ${gate.differences.join(', ')}: the change may be theirs, not the code's)`
    : '';
  const head = `gate ${OUTCOME_WORDS[gate.outcome]} (${gate.subject}, ${gate.rule})`;
  const tail =
    gate.outcome === 'inconclusive'
      ? gate.failInconclusive
        ? '; failing the job (--fail-inconclusive)'
        : '; not failing the job (--fail-inconclusive would)'
      : '';
  if (gate.points.length === 1) {
    const [point] = gate.points;
    return `${head}: ${gate.kind === 'change' ? `${point.label} ` : ''}${judgementText(point, { fixedRounds, single: true })}${note}${tail}`;
  }
  const deciding = gate.points.filter((point) => point.outcome === gate.outcome);
  const counts = /** @type {const} */ (['pass', 'fail', 'inconclusive'])
    .map((outcome) => ({ outcome, n: gate.points.filter((point) => point.outcome === outcome).length }))
    .filter(({ n }) => n)
    .map(({ outcome, n }) => `${n} ${OUTCOME_WORDS[outcome]}`)
    .join(', ');
  const shown = gate.outcome === 'pass' ? [] : deciding.slice(0, 3);
  const detail = shown.map((point) => `${point.label}: ${judgementText(point, { fixedRounds, single: false })}`);
  if (deciding.length > shown.length && shown.length) detail.push(`${deciding.length - shown.length} more`);
  return `${head}: ${plural(gate.points.length, gate.kind === 'change' ? 'change' : 'point')}, ${counts}${detail.length ? `; ${detail.join('; ')}` : ''}${note}${tail}`;
}

/**
 * What GitHub shows for a step (appended to $GITHUB_STEP_SUMMARY): the command and its verdict,
 * the gate's outcome, and the tables as `--markdown` prints them, folded (a run's rounds make a
 * long table).
 * @param {{ title: string, verdict: string | null, gate: Gate | null, tables: string }} parts
 */
export function stepSummary({ title, verdict, gate, tables }) {
  const icon = gate ? { pass: '✅', fail: '❌', inconclusive: '⚠️' }[gate.outcome] : '';
  return [
    `**${title}**${verdict ? `: ${verdict}` : ''}`,
    '',
    ...(gate ? [`${icon} **${gateLine(gate)}**`, ''] : []),
    "<details><summary>the run's tables</summary>",
    '',
    tables.trimEnd(),
    '',
    '</details>',
    '',
    '',
  ].join('\n');
}

// The --verbose breakdown of a round's time: each phase of a cell, mean over the run, and how
// much of a round the timed windows were.

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
  const columns = columnLines(rows, {
    align: ['left', ...modes.map(() => /** @type {const} */ ('right'))],
    min: [0, ...modes.map(() => 7)],
  });
  return [
    `mmapbench: where a round's time went (ms per cell, mean of ${plural(summary.rounds, 'round')}):`,
    ...columns.map((line) => `mmapbench:   ${line}`),
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
