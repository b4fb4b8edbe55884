import { shown } from '../saved/save.js';
import { reportFiles } from '../commands/report/run.js';

/**
 * `mmapbench report FILE...`: the files as their runs printed them, or the page written.
 * @param {Parameters<typeof reportFiles>[0]} request
 * @param {import('./context.js').Context} [context]
 */
export async function reportCommand(request, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const { text, page, exported } = await reportFiles(request, stdout);
  for (const file of exported) stderr.write(`mmapbench: exported ${shown(file)}\n`);
  if (page)
    stderr.write(
      `mmapbench: wrote ${shown(page.path)} (${page.charts} charts, ${Math.round(page.bytes / 1024)} KiB)\n`,
    );
  if (text !== null) stdout.write(text);
}
