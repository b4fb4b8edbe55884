import Table from 'cli-table3';
import wrapAnsi from 'wrap-ansi';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const ops = (/** @type {number} */ value) => integer.format(value);
export const fixed = (/** @type {number} */ value, digits = 2) => value.toFixed(digits);
/** Seconds to two decimals, as the round and cell lengths are told: `0.10 s`. */
export const seconds = (/** @type {number} */ ns) => `${fixed(ns / 1e9)} s`;
/** @param {number} ns */
export function duration(ns) {
  if (ns >= 1e9) return `${fixed(ns / 1e9)} s`;
  if (ns >= 1e6) return `${fixed(ns / 1e6)} ms`;
  if (ns >= 1e3) return `${fixed(ns / 1e3, 1)} µs`;
  return `${Math.round(ns)} ns`;
}

/** @param {{ isTTY?: boolean }} [stream] */
export const useColor = (stream = process.stdout, env = process.env) =>
  Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb';

/**
 * A report as data: a title, table sections, and lines after. Both renderers read the same
 * model, so the markdown never drifts from the terminal table.
 * @typedef {{ title: string, lines?: string[], tables: { head: string[], rows: string[][], align?: string[], widths?: number[] }[], notes: string[], blocks?: string[] }} ReportModel
 *   widths: column widths for the terminal, long cells wrap at words; blocks: preformatted text
 *   (charts) after the notes, never wrapped, fenced in markdown
 */

/**
 * Column widths (padding included) that fit `total` columns with the table's borders: every
 * column shrinks in proportion, but never below its longest word, so a verdict or a number is
 * never cut; long cells wrap at words.
 * @param {number[]} widths
 * @param {number} total
 * @param {string[][]} [cells]  the head and rows, whose words set each column's floor
 */
export function fitWidths(widths, total, cells = []) {
  const borders = widths.length + 1;
  const room = total - borders;
  const sum = widths.reduce((a, b) => a + b, 0);
  if (sum <= room) return widths;
  const floors = floorsOf(widths, cells);
  const fitted = widths.map((width, i) => Math.max(floors[i], Math.floor((width * room) / sum)));
  // the floors may have pushed it over: take the rest from the columns with most to spare
  for (let over = fitted.reduce((a, b) => a + b, 0) - room; over > 0; over--) {
    const spare = fitted.map((width, i) => width - floors[i]);
    const most = spare.indexOf(Math.max(...spare));
    if (spare[most] <= 0) break;
    fitted[most]--;
  }
  return fitted;
}

/**
 * For a table whose columns are as wide as their contents: the widest column gives a column at
 * a time, so a long head or text wraps before a short number does; floors as in fitWidths.
 * @param {string[][]} cells  the head and rows
 * @param {number} total
 */
export function fitContents(cells, total) {
  const fitted = naturalWidths(cells);
  const floors = floorsOf(fitted, cells);
  for (let over = fitted.reduce((a, b) => a + b, 0) - (total - fitted.length - 1); over > 0; over--) {
    let widest = -1;
    for (let i = 0; i < fitted.length; i++) {
      if (fitted[i] > floors[i] && (widest < 0 || fitted[i] > fitted[widest])) widest = i;
    }
    if (widest < 0) break;
    fitted[widest]--;
  }
  return fitted;
}

/** A short word (a verdict, a number) stays whole; a long one (a path) is broken instead. */
const floorsOf = (/** @type {number[]} */ widths, /** @type {string[][]} */ cells) =>
  widths.map((width, i) => {
    const words = cells.flatMap((row) => String(row[i] ?? '').split(/\s+/));
    return Math.min(width, 16, Math.max(6, ...words.map((word) => [...word].length + 2)));
  });

/** Each column's width as its longest line asks, padding included: what the table takes unfitted. */
const naturalWidths = (/** @type {string[][]} */ cells) =>
  cells[0].map(
    (_, /** @type {number} */ i) =>
      2 +
      Math.max(
        ...cells.map((row) =>
          Math.max(
            ...String(row[i] ?? '')
              .split('\n')
              .map((line) => [...line].length),
          ),
        ),
      ),
  );

/** The width text is wrapped to: the terminal's, or 80 off a terminal (a log, a pipe). */
export const textWidth = (/** @type {{ columns?: number } | undefined} */ stream) =>
  Math.max(60, stream?.columns ?? 80);

/**
 * @param {ReportModel} model
 * @param {{ color?: boolean, width?: number }} [options]  width: lines of text wrap at it
 */
export function renderTerminal(model, { color = false, width = 80 } = {}) {
  const wrap = (/** @type {string} */ text) => wrapAnsi(text, width, { hard: true });
  const parts = [model.title, ...(model.lines ?? [])].map(wrap);
  for (const { head, rows, align, widths } of model.tables) {
    const fitted = widths ? fitWidths(widths, width, [head, ...rows]) : fitContents([head, ...rows], width);
    // cells are wrapped here, words longer than the column broken, so nothing is cut off
    const fit = (/** @type {string[]} */ row) =>
      row.map((cell, i) => wrapAnsi(String(cell), fitted[i] - 2, { hard: true }));
    const table = new Table({
      head: fit(head),
      colWidths: fitted,
      colAligns: /** @type {any} */ (align ?? head.map((_, i) => (i === 0 ? 'left' : 'right'))),
      style: { compact: true, head: color ? ['cyan'] : [], border: color ? ['grey'] : [] },
    });
    table.push(...rows.map(fit).flatMap(lineByLine));
    parts.push(table.toString());
  }
  parts.push(...model.notes.map(wrap), ...(model.blocks ?? []));
  return `${parts.join('\n')}\n`;
}

/**
 * A row of wrapped cells as one row per line. cli-table3 0.6.5 truncates a preview of a cell's
 * whole text on every line it draws, for a debug message it then does not print, and for text
 * of several lines that costs time growing with the square of its length (cli-table3 pull
 * request 362; 1.5 s for `mmapbench tasks`). A compact table draws no rule between rows, so
 * the output is the same.
 * @param {string[]} row
 */
function lineByLine(row) {
  const cells = row.map((cell) => cell.split('\n'));
  const height = Math.max(...cells.map((lines) => lines.length));
  return Array.from({ length: height }, (_, line) => cells.map((lines) => lines[line] ?? ''));
}

/** @param {ReportModel} model @param {{ level?: number }} [options] heading level of the title */
export function renderMarkdown(model, { level = 3 } = {}) {
  const cell = (/** @type {string} */ text) => String(text).replaceAll('|', '\\|');
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
  for (const block of model.blocks ?? []) parts.push('', '```', block.replace(/\n$/, ''), '```');
  return `${parts.join('\n')}\n`;
}
