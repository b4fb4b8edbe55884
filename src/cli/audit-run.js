import { audit } from '../system/trace/audit.js';
import { describeEnvironment } from '../system/environment.js';
import { auditModel, buildAuditResults } from '../report/audit-model.js';
import { renderMarkdown, renderTerminal, textWidth, useColor } from '../report/table.js';
import { keepResults, resultsFolder } from '../results/save.js';

/**
 * `mmapbench trace --pid PID` / `trace -- COMMAND`: trace, print, save.
 * @param {import('../system/trace/audit.js').AuditRequest} request
 * @param {ReturnType<typeof import('./options.js').output>} output
 * @param {import('./index.js').Context} [context]
 */
export async function auditCommand(
  request,
  { format, save },
  { interrupt, stdout = process.stdout, stderr = process.stderr } = {},
) {
  if (save) resultsFolder(save.out);
  const run = await audit(request, { interrupt, stderr });
  const results = buildAuditResults(
    run,
    describeEnvironment({ node: { path: process.execPath, version: process.version }, env: process.env }),
  );
  stdout.write(renderAudit(results, format, stdout));
  keepResults(results, save, null, stderr);
  return results;
}

export function renderAudit(results, format, stream) {
  if (format === 'json') return `${JSON.stringify(results, null, 2)}\n`;
  const model = auditModel(results);
  return format === 'markdown'
    ? renderMarkdown(model)
    : renderTerminal(model, { color: useColor(stream), width: textWidth(stream) });
}
