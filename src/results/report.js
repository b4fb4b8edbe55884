import { renderResults } from '../report/render.js';
import { renderReport } from '../reproduce/report.js';
import { textWidth, useColor } from '../report/table.js';
import { renderSweep } from '../cli/sweep-run.js';
import { renderAudit } from '../cli/audit-run.js';
import { savedReportModels } from '../reproduce/command.js';
import { loadResults } from './load.js';

/**
 * One saved file as its run printed it.
 * @param {import('./load.js').Saved} saved
 * @param {'terminal'|'markdown'} format
 * @param {NodeJS.WritableStream & { isTTY?: boolean, columns?: number }} stream
 */
export function renderSaved(saved, format, stream) {
  if (saved.kind === 'measure') return renderResults(saved.document, format, { stream });
  if (saved.kind === 'sweep') return renderSweep(saved.document, format, stream);
  if (saved.kind === 'audit') return renderAudit(saved.document, format, stream);
  return renderReport(savedReportModels(saved), {
    markdown: format === 'markdown',
    color: useColor(stream),
    width: textWidth(stream),
  });
}

/**
 * `mmapbench report FILE...`: every file read and checked first (a bad one stops the command
 * before anything is written), then printed, or written as one HTML page.
 * @param {{ files: string[], markdown: boolean, html?: string }} request
 * @param {import('../cli/index.js').Context} [context]
 */
export async function reportCommand(
  { files, markdown, html },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
  const saved = files.map((file) => loadResults(file));
  if (html) {
    const { writeHtmlReport } = await import('./html.js');
    const written = await writeHtmlReport(saved, html);
    stderr.write(
      `mmapbench: wrote ${written.path} (${written.charts} charts, ${Math.round(written.bytes / 1024)} KiB)\n`,
    );
    return;
  }
  stdout.write(saved.map((one) => renderSaved(one, markdown ? 'markdown' : 'terminal', stdout)).join('\n'));
}
