import { writeExports } from '../saved/export.js';
import { shown } from '../saved/save.js';
import { checkDistinct } from '../system/safe-fs.js';
import { exportsWritten } from './typed-options.js';
import { loadSaved, renderSaved } from '../kinds/index.js';

/**
 * `mmapbench report FILE...`: every file read and checked first (a bad one stops the command
 * before anything is written), then printed, or written as one HTML page.
 * With --export, the files are also written in a dashboard's format (all of them in one file).
 * @param {{ files: string[], markdown: boolean, html?: string, exports?: import('../saved/export.js').ExportRequest[], verbose?: boolean }} request
 * @param {import('./index.js').Context} [context]
 */
export async function reportCommand(
  { files, markdown, html, exports = [], verbose = false },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
  checkDistinct(
    files.map((file) => ({ path: file, what: `${file}, which report reads` })),
    [
      ...(html ? [{ path: html, as: `--html ${html}`, what: `the page --html ${html} writes` }] : []),
      ...exportsWritten(exports),
    ],
  );
  const saved = files.map((file) => loadSaved(file));
  for (const file of writeExports(saved, exports)) stderr.write(`mmapbench: exported ${shown(file)}\n`);
  if (html) {
    const { writeHtmlReport } = await import('../view/html.js');
    const written = await writeHtmlReport(saved, html);
    stderr.write(
      `mmapbench: wrote ${written.path} (${written.charts} charts, ${Math.round(written.bytes / 1024)} KiB)\n`,
    );
    return;
  }
  stdout.write(
    saved.map((one) => renderSaved(one, markdown ? 'markdown' : 'terminal', stdout, { verbose })).join('\n'),
  );
}
