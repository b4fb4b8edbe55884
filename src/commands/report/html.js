// `mmapbench report FILE... --html OUT`: one self-contained page. The charts are inline SVG
// drawn here, the style is inline, and there is no script and no link to fetch: the page
// opens from disk, offline, and can be mailed.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { usageError } from '../../errors.js';
import { checkOutput, fileError, writeFileAtomic } from '../../system/safe-fs.js';
import { factsOf } from '../../saved/load.js';
import { page } from '../../view/html-page.js';

/**
 * @typedef {import('../../saved/load.js').FileKind & {
 *   models: (document: any, shown: { verbose: boolean, width: number, path: string }) => ReportModel[],
 *   section: (saved: any, shown: { facts: Record<string, string>, models: ReportModel[] }) => Promise<Section> }} ShownKind
 *   what the page asks of a file's kind besides what every reader does: its tables, its section
 * @typedef {import('../../saved/load.js').Saved<ShownKind>} Saved
 * @typedef {import('../../view/charts.js').Chart} Chart
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {import('../../view/html-page.js').Section} Section
 */

/**
 * Checks `--html` before anything is drawn: its folder must exist. (That it is none of the
 * files read is report's check, by device and inode: cli/report-run.js.)
 * @param {string} path
 */
function checkTarget(path) {
  const folder = dirname(resolve(path));
  if (!existsSync(folder))
    throw usageError(`--html ${path}: the folder ${folder} does not exist; create it or pass another path`);
  if (existsSync(path) && statSync(path).isDirectory())
    throw usageError(`--html ${path} is a folder; pass a file name, e.g. ${path}/report.html`);
  checkOutput(path, `--html ${path}`);
}

/**
 * Draws every file's charts and writes the page atomically.
 * @param {Saved[]} saved
 * @param {string} path
 * @returns {Promise<{ path: string, charts: number, bytes: number }>}
 */
export async function writeHtmlReport(saved, path) {
  checkTarget(path);
  const sections = [];
  let charts = 0;
  for (const one of saved) {
    const section = await sectionOf(one);
    charts += section.charts;
    sections.push(section.html);
  }
  const html = page(sections.join('\n'), saved.length);
  try {
    writeFileAtomic(path, html);
  } catch (error) {
    throw fileError(error, path, '--html');
  }
  return { path, charts, bytes: Buffer.byteLength(html) };
}

/**
 * The charts and tables of one saved file, as its kind draws them (each command's `kind.js`): its
 * whole text as tables, at the page's width.
 * @param {Saved} saved
 * @returns {Promise<Section>}
 */
const sectionOf = (saved) =>
  saved.kind.section(saved, {
    facts: factsOf(saved),
    models: saved.kind.models(saved.document, { verbose: true, width: 100, path: saved.path }),
  });
