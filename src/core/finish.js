// The end of compare, sweep and advise as data: the gate's outcome, the saved file, the exports.
// The CLI prints what this returns (cli/finish.js); the API returns its document.
import { MmapbenchError } from '../errors.js';
import { asSaved, saveDocument } from '../saved/save.js';
import { ratioGate } from '../document/gate.js';
import { shortBudgetText, straysText } from '../document/sentences.js';

/** @typedef {import('./typed-options.js').Output} Output */

/**
 * The gate of a compare or sweep that completed, for its document: null without --fail-below,
 * or when the run failed or was interrupted (its error is the outcome then).
 * @param {any} document  the document, before it is printed and saved
 * @param {Output['gate']} request
 * @param {{ fixedRounds: boolean, kind: import('../saved/load.js').FileKind }} run  kind: the
 *   kind of file the command saves, whose points the gate reads
 */
export function gateOf(document, request, { fixedRounds, kind }) {
  if (!request || document.status !== 'complete') return null;
  const points = kind.points?.(document) ?? [];
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
 * What a finished (or stopped, or failed) run left: its document as saved, where it was saved
 * (or why it could not be), the files exported, and the run's own error.
 * @typedef {object} Finished
 * @property {any} document  with its warnings, its gate, and a save that failed in its status
 * @property {ReturnType<typeof saveDocument>} saved
 * @property {string[]} exported
 * @property {Error | null} runError
 * @property {import('../view/kind.js').Kind} kind  the kind of file the command saves
 */

/**
 * Keeps a run that ended: the processes it left are a warning in its document, then it is saved
 * (with its status, so an interrupted or failed run is kept too) and, unless it broke, exported.
 * @param {any} measured  the document, with `gate` from gateOf when one was asked for
 * @param {Output} output
 * @param {{ runError: Error | null | undefined, reporter: import('./reporter.js').Reporter & { warnings: import('./reporter.js').Warning[] },
 *   kept?: import('../saved/save.js').Keeper | null, kind: import('../view/kind.js').Kind }} run  kept: the file the run kept as
 *   it went; kind: the kind of file the command saves
 * @returns {Promise<Finished>}
 */
export async function keepRun(measured, output, { runError, reporter, kept = null, kind }) {
  const strays = straysText(measured);
  if (strays) reporter.warn({ code: 'strays', text: strays });
  const withWarnings = { ...measured, warnings: reporter.warnings };
  const saved = saveDocument(withWarnings, output.save, runError, kept);
  const document = asSaved(withWarnings, saved, runError);
  const broken = runError || (saved && 'error' in saved);
  // the exporters load only for a run that asked for one
  const exported =
    broken || !output.exports.length
      ? []
      : (await import('../saved/export.js')).writeExports([{ kind, path: 'this run', document }], output.exports);
  return { document, saved, exported, runError: runError ?? null, kind };
}

/**
 * The error a run that was kept ends with, if any, with its document attached (`error.document`)
 * so that what it measured is never lost to a caller: the run's own error, else a save that
 * failed, else a budget too short to count a round. A gate is the caller's to read.
 * @param {Finished} finished
 * @returns {(Error & { document?: any }) | null}
 */
export function endingError({ document, saved, runError }) {
  const saveError = saved && 'error' in saved ? saved.error : null;
  /** @type {(Error & { document?: any }) | null} */
  const error =
    runError ??
    saveError ??
    (document.shortBudget?.counted === 0
      ? new MmapbenchError(shortBudgetText(document.shortBudget, document.seconds), { kind: 'budget' })
      : null);
  if (error) Object.defineProperty(error, 'document', { value: document, enumerable: false, configurable: true });
  return error;
}
