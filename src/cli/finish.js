// What the CLI prints at the end of compare, sweep and advise, in the order a CI log wants it:
// the tables, the saved file, the exports, GitHub's step summary (with --ci), and last the gate's
// outcome, which sets the exit code. What it prints is what the core returned (core/finish.js).
import { appendFileSync } from 'node:fs';
import { MmapbenchError } from '../errors.js';
import { sameFiles } from '../system/safe-fs.js';
import { savedLine, shown } from '../saved/save.js';
import { gateLine, stepSummary } from '../models/gate.js';
import { renderKind } from '../view/index.js';
import { phaseLines, roundCost } from '../models/phases.js';
import { endingError } from '../core/finish.js';
import { terminalReporter } from './terminal.js';
import { verdictWords } from '../models/words.js';

/**
 * Runs a command's core with the terminal's reporter, then prints what it kept.
 * @param {(context: import('../core/reporter.js').Context) => Promise<import('../core/finish.js').Finished>} run
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
 * @param {import('../core/finish.js').Finished} finished
 * @param {import('../core/typed-options.js').Output} output
 * @param {{ stdout: NodeJS.WritableStream & { columns?: number }, stderr: NodeJS.WritableStream }} streams
 */
export function printRun(finished, output, { stdout, stderr }) {
  const { document, saved, exported, runError, kind } = finished;
  stdout.write(renderKind(kind, document, output.format, stdout, { verbose: output.verbose }));
  if (output.verbose)
    for (const line of verboseLines(kind.points?.(document) ?? [], document)) stderr.write(`${line}\n`);
  // the path, then the run's own error (or the save's), whose line comes last
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
        verdict: document.verdict ? verdictWords(document) : null,
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
    appendFileSync(file, stepSummary(parts()));
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
  if (points.length > 1)
    return points.flatMap((point) => (point.phases ? [`mmapbench: ${point.label}: ${roundCost(point.phases)}`] : []));
  const [{ phases }] = points;
  if (!phases) return [];
  return phaseLines(phases, document.aa ? ['A', 'B'] : Object.keys(phases.modes));
}
