// `report`: saved results as their run printed them, or one HTML page of them all.
import { writeExports } from '../../saved/export.js';
import { checkDistinct } from '../../system/safe-fs.js';
import { exportsWritten } from '../../core/typed-options.js';
import { loadSaved, render, renderSaved } from '../index.js';

/**
 * Every file read and checked first (a bad one stops the command before anything is written),
 * then drawn as text, or written as one HTML page; with exports, also written in a dashboard's
 * format (all of them in one file).
 * @param {{ files: string[], markdown: boolean, html?: string, exports?: import('../../saved/export.js').ExportRequest[], verbose?: boolean }} request
 * @param {import('../../view/index.js').Stream} [screen]  the text's width, and whether it takes color
 * @returns {Promise<{ text: string | null, page: { path: string, charts: number, bytes: number } | null, exported: string[] }>}
 */
export async function reportFiles({ files, markdown, html, exports = [], verbose = false }, screen = {}) {
  checkDistinct(
    files.map((file) => ({ path: file, what: `${file}, which report reads` })),
    [
      ...(html ? [{ path: html, as: `--html ${html}`, what: `the page --html ${html} writes` }] : []),
      ...exportsWritten(exports),
    ],
  );
  const saved = files.map((file) => loadSaved(file));
  const exported = writeExports(saved, exports);
  if (html) {
    const { writeHtmlReport } = await import('./html.js');
    return { text: null, page: await writeHtmlReport(saved, html), exported };
  }
  const text = saved.map((one) => renderSaved(one, markdown ? 'markdown' : 'terminal', screen, { verbose })).join('\n');
  return { text, page: null, exported };
}

/**
 * A document a run returned (the API's), drawn as the CLI prints it: its answer, or with
 * `verbose` its whole text; the sentences made from its figures.
 * @param {any} document
 * @param {{ markdown?: boolean, verbose?: boolean }} how
 * @param {import('../../view/index.js').Stream} [screen]
 */
export const documentText = (document, { markdown = false, verbose = false }, screen = {}) =>
  render(document, markdown ? 'markdown' : 'terminal', screen, { verbose });

export { checkDocument } from '../index.js';
