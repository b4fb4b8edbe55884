import { loadResults } from '../results/load.js';
import { renderSaved } from '../view/index.js';

/**
 * `mmapbench report FILE...`: every file read and checked first (a bad one stops the command
 * before anything is written), then printed, or written as one HTML page.
 * @param {{ files: string[], markdown: boolean, html?: string }} request
 * @param {import('./index.js').Context} [context]
 */
export async function reportCommand(
  { files, markdown, html },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
  const saved = files.map((file) => loadResults(file));
  if (html) {
    const { writeHtmlReport } = await import('../view/html.js');
    const written = await writeHtmlReport(saved, html);
    stderr.write(
      `mmapbench: wrote ${written.path} (${written.charts} charts, ${Math.round(written.bytes / 1024)} KiB)\n`,
    );
    return;
  }
  stdout.write(saved.map((one) => renderSaved(one, markdown ? 'markdown' : 'terminal', stdout)).join('\n'));
}
