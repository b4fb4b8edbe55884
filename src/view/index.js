// The one way from a results document to what the user sees: a kind of document and a format
// pick the renderer. A live run and `mmapbench report FILE` both come through here, so a saved
// file prints exactly as its run did.
import { adviceModel } from '../report/advice-model.js';
import { adviceAnswer, compareAnswer, reproduceAnswer, sweepAnswer, traceAnswer } from '../report/answer-model.js';
import { auditModel } from '../report/audit-model.js';
import { compareModel, singleModel } from '../report/model.js';
import { sweepModel } from '../report/sweep-model.js';
import { traceModel } from '../report/trace-model.js';
import { renderMarkdown, renderTerminal, textWidth, useColor } from '../report/table.js';
import { savedReportModels } from '../reproduce/models.js';
import { renderReport } from '../reproduce/report.js';
import { kindOf } from '../results/load.js';

/** @typedef {'terminal'|'markdown'|'json'} Format */
/** @typedef {NodeJS.WritableStream & { isTTY?: boolean, columns?: number }} Stream */

/**
 * The report models of each kind of document; a document may make more than one table.
 * @type {Record<'measure'|'sweep'|'audit', (document: any, width: number) => import('../report/table.js').ReportModel[]>}
 */
const MODELS = {
  measure: (results) => [
    results.command === 'compare' ? compareModel(results) : singleModel(results),
    ...(results.trace ? [traceModel(results)] : []),
  ],
  // an advise run is a sweep of its candidates: its ranking first
  sweep: (results, width) => [...(results.advice ? [adviceModel(results)] : []), sweepModel(results, { width })],
  audit: (results) => [auditModel(results)],
};

/**
 * The answer of each kind of document: what a run prints unless --verbose asks for the whole
 * text. A kind without one prints its whole text.
 * @type {Partial<Record<'measure'|'sweep'|'audit', (document: any, width: number) => import('../report/table.js').ReportModel[]>>}
 */
const ANSWERS = {
  measure: (results, width) =>
    results.command === 'compare'
      ? [compareAnswer(results), ...(results.trace ? [traceAnswer(results)] : [])]
      : MODELS.measure(results, width),
  sweep: (results) => [results.advice ? adviceAnswer(results) : sweepAnswer(results)],
};

/**
 * The report models a document prints as: its answer, or with `verbose` its whole text.
 * @param {{ command: string }} document
 * @param {{ verbose?: boolean, width?: number }} [options]
 */
export function modelsOf(document, { verbose = false, width = 80 } = {}) {
  const kind = kindOf(document);
  return (verbose ? MODELS[kind] : (ANSWERS[kind] ?? MODELS[kind]))(document, width);
}

/**
 * A results document as the user asked to see it: its answer, or with `verbose` its whole text.
 * @param {{ command: string }} document  as the run built it, or as it was saved
 * @param {Format} format
 * @param {Stream} [stream]  where it goes: its width and whether it takes color
 * @param {{ verbose?: boolean }} [options]
 */
export function render(document, format, stream = process.stdout, { verbose = false } = {}) {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  const width = textWidth(stream);
  return modelsOf(document, { verbose, width })
    .map((model) =>
      format === 'markdown' ? renderMarkdown(model) : renderTerminal(model, { color: useColor(stream), width }),
    )
    .join('\n');
}

/**
 * A reproduce run's report, live (its models) or from its results file.
 * @param {ReturnType<typeof savedReportModels>} models
 * @param {'terminal'|'markdown'} format
 * @param {Stream} [stream]
 */
export const renderReproduce = (models, format, stream = process.stdout, { verbose = false } = {}) =>
  renderReport(verbose ? models : reproduceAnswer(models), {
    markdown: format === 'markdown',
    color: useColor(stream),
    width: textWidth(stream),
  });

/** @typedef {import('../results/load.js').Saved} Saved */

/**
 * How each kind of saved file prints: a document as its run printed it, a reproduce run's file
 * as its report.
 * @type {{ [K in Saved['kind']]: (saved: Extract<Saved, { kind: K }>, format: 'terminal'|'markdown', stream: Stream, options?: { verbose?: boolean }) => string }}
 */
const SAVED = {
  measure: (saved, format, stream, options) => render(saved.document, format, stream, options),
  sweep: (saved, format, stream, options) => render(saved.document, format, stream, options),
  audit: (saved, format, stream, options) => render(saved.document, format, stream, options),
  reproduce: (saved, format, stream, options) => renderReproduce(savedReportModels(saved), format, stream, options),
};

/**
 * One saved file as its run printed it.
 * @param {Saved} saved
 * @param {'terminal'|'markdown'} format
 * @param {Stream} stream
 * @param {{ verbose?: boolean }} [options]  the whole text rather than the answer
 */
export const renderSaved = (saved, format, stream, options = {}) =>
  /** @type {(saved: Saved, format: 'terminal'|'markdown', stream: Stream, options?: { verbose?: boolean }) => string} */ (
    SAVED[saved.kind]
  )(saved, format, stream, options);
