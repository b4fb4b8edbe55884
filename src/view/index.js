// The one way from models to what the user sees: a format and a stream pick the renderer. Which
// models a document makes is its kind's to say (each command's `kind.js`); a live run and
// `mmapbench report FILE` both come through here, so a saved file prints exactly as its run did.
import { renderMarkdown, renderTerminal, textWidth, useColor } from './table.js';

/** @typedef {'terminal'|'markdown'|'json'} Format */
/** What a text is drawn for: its width, and whether it takes color (a terminal's stdout, or none). @typedef {{ isTTY?: boolean, columns?: number }} Stream */
/** @typedef {import('../words/report-model.js').ReportModel} ReportModel */

/**
 * A document's models as the user asked to see them: JSON is the document itself.
 * @param {unknown} document
 * @param {(width: number) => ReportModel[]} modelsAt  its models at a width
 * @param {Format} format
 * @param {Stream} [stream]  where it goes: its width and whether it takes color
 */
export function renderModels(document, modelsAt, format, stream = process.stdout) {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  const width = textWidth(stream);
  return modelsAt(width)
    .map((model) =>
      format === 'markdown' ? renderMarkdown(model) : renderTerminal(model, { color: useColor(stream), width }),
    )
    .join('\n');
}

/**
 * A document as its kind draws it: its answer, or with `verbose` its whole text.
 * @param {{ models: (document: any, options: { verbose: boolean, width: number, path: string }) => ReportModel[] }} kind
 * @param {unknown} document  as the run built it, or as it was saved
 * @param {Format} format
 * @param {Stream} [stream]  where it goes: its width and whether it takes color
 * @param {{ verbose?: boolean, path?: string }} [options]  path: how its models name the file
 */
export const renderKind = (
  kind,
  document,
  format,
  stream = process.stdout,
  { verbose = false, path = 'this run' } = {},
) => renderModels(document, (width) => kind.models(document, { verbose, width, path }), format, stream);
