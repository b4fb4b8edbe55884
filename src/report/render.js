import { compareModel, singleModel } from './model.js';
import { traceModel } from './trace-model.js';
import { renderMarkdown, renderTerminal, textWidth, useColor } from './table.js';

/**
 * A results document as the user asked to see it.
 * @param {object} results  from buildResults
 * @param {'terminal'|'markdown'|'json'} format
 * @param {{ stream?: NodeJS.WritableStream & { isTTY?: boolean } }} [options]
 */
export function renderResults(results, format, { stream = process.stdout } = {}) {
  if (format === 'json') return `${JSON.stringify(results, null, 2)}\n`;
  /** @type {import('./table.js').ReportModel[]} */
  const models = [results.command === 'compare' ? compareModel(results) : singleModel(results)];
  if (results.trace) models.push(traceModel(results));
  return models
    .map((model) =>
      format === 'markdown'
        ? renderMarkdown(model)
        : renderTerminal(model, { color: useColor(stream), width: textWidth(stream) }),
    )
    .join('\n');
}
