import { audit } from './audit-trace.js';
import { describeEnvironment } from '../../system/environment.js';
import { buildAuditResults } from './audit.js';
import { render } from '../index.js';
import { asSaved, saveDocument, savedLine } from '../../saved/save.js';
import { holdingResults } from '../../saved/claim.js';

/**
 * `mmapbench trace --pid PID` / `trace -- COMMAND`: trace, print, save.
 * @param {import('./audit-trace.js').AuditRequest} request
 * @param {ReturnType<typeof import('../../core/typed-options.js').output>} output
 * @param {{ interrupt?: AbortSignal, stdout?: NodeJS.WritableStream & { columns?: number, isTTY?: boolean },
 *   stderr?: NodeJS.WritableStream }} [context]  Ctrl-C, and where it writes
 */
export async function auditCommand(
  request,
  { format, save },
  { interrupt, stdout = process.stdout, stderr = process.stderr } = {},
) {
  return holdingResults(
    save,
    null,
    ({ text }) => stderr.write(`mmapbench: warning: ${text}\n`),
    async () => {
      const run = await audit(request, { interrupt, stderr });
      const measured = buildAuditResults(
        run,
        describeEnvironment({ node: { path: process.execPath, version: process.version }, env: process.env }),
      );
      // saved first: a save that failed is in what is printed, as the exit code says (finish.js)
      const saved = saveDocument(measured, save, null);
      const document = asSaved(measured, saved, null);
      stdout.write(render(document, format, stdout));
      savedLine(saved, null, stderr);
      return document;
    },
  );
}
