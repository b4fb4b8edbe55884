import Table from 'cli-table3';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const ops = (value) => integer.format(value);
export const fixed = (value, digits = 2) => value.toFixed(digits);
export function duration(ns) {
  if (ns >= 1e9) return `${fixed(ns / 1e9)} s`;
  if (ns >= 1e6) return `${fixed(ns / 1e6)} ms`;
  if (ns >= 1e3) return `${fixed(ns / 1e3, 1)} µs`;
  return `${Math.round(ns)} ns`;
}

export const useColor = (stream = process.stdout, env = process.env) =>
  Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb';

/**
 * A report as data: a title, table sections, and lines after. Both renderers read the same
 * model, so the markdown never drifts from the terminal table.
 * @typedef {{ title: string, lines?: string[], tables: { head: string[], rows: string[][], align?: ('left'|'right')[], widths?: number[] }[], notes: string[] }} ReportModel
 *   widths: column widths for the terminal, long cells wrap at words
 */

/** @param {ReportModel} model */
export function renderTerminal(model, { color = false } = {}) {
  const parts = [model.title, ...(model.lines ?? [])];
  for (const { head, rows, align, widths } of model.tables) {
    const table = new Table({
      head,
      ...(widths ? { colWidths: widths, wordWrap: true } : {}),
      colAligns: align ?? head.map((_, i) => (i === 0 ? 'left' : 'right')),
      style: { compact: true, head: color ? ['cyan'] : [], border: color ? ['grey'] : [] },
    });
    table.push(...rows);
    parts.push(table.toString());
  }
  parts.push(...model.notes);
  return `${parts.join('\n')}\n`;
}

/** @param {ReportModel} model @param {{ level?: number }} [options] heading level of the title */
export function renderMarkdown(model, { level = 3 } = {}) {
  const cell = (text) => String(text).replaceAll('|', '\\|');
  const parts = [`${'#'.repeat(level)} ${model.title}`, ...(model.lines ?? []).map((line) => `${line}  `)];
  for (const { head, rows, align } of model.tables) {
    const aligns = align ?? head.map((_, i) => (i === 0 ? 'left' : 'right'));
    parts.push(
      '',
      `| ${head.map(cell).join(' | ')} |`,
      `|${aligns.map((a) => (a === 'right' ? '---:' : ':---')).join('|')}|`,
      ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    );
  }
  if (model.notes.length) parts.push('', ...model.notes.map((line) => `${line}  `));
  return `${parts.join('\n')}\n`;
}
