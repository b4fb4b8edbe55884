import Table from 'cli-table3';
import wrapAnsi from 'wrap-ansi';
import stringWidth from 'string-width';

/** @param {{ isTTY?: boolean }} [stream] */
export const useColor = (stream = process.stdout, env = process.env) =>
  Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb';

/** @typedef {import('../words/report-model.js').ReportModel} ReportModel */

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

/**
 * No column narrower than its longest piece that must not be broken (a word, a number with its
 * unit; see piecesOf), so a cell wraps only between pieces.
 */
const floorsOf = (/** @type {number[]} */ widths, /** @type {string[][]} */ cells) =>
  widths.map((width, i) => {
    const pieces = cells.flatMap((row) => piecesOf(String(row[i] ?? '')));
    return Math.min(width, Math.max(3, ...pieces.map((piece) => visible(piece.trimEnd()) + 2)));
  });

// the columns a text takes on a terminal, as cli-table3 counts them: a color's escape takes none,
// a wide character (CJK, most emoji) two, a combining mark none
const visible = (/** @type {string} */ text) => stringWidth(text);

/**
 * A cell's text as the pieces a line may end after: a word with the space after it, or a part of
 * a word ending in a hyphen, a comma or `=` (`readfilesync-`, `MALLOC_ARENA_MAX=`). A number and
 * its unit are one piece; a range never breaks at its dash (`0.48-1.85`), so an interval may go
 * to the next line whole but is never split.
 * @param {string} text  one line of a cell
 * @returns {string[]}
 */
export function piecesOf(text) {
  const pieces = [];
  let piece = '';
  const chars = [...text.replace(NUMBER_UNIT, `$1${NBSP}`)];
  chars.forEach((char, i) => {
    const next = chars[i + 1] ?? '';
    piece += char;
    const space = char === ' ' || char === '\t';
    // a line may end after spaces, a hyphen inside a word (not a flag's `--`) or a name's `=`, or a comma
    // that does not group digits
    const breaks = space
      ? next !== ' ' && next !== '\t'
      : ((char === '-' && /[\p{L}\d]/u.test(piece) && !(/\d-$/.test(piece) && /\d/.test(next))) ||
          // after a variable's name, not inside `k=2`
          (char === '=' && /[\p{L}\d_]{4}=$/u.test(piece)) ||
          (char === ',' && !/\d/.test(next))) &&
        next !== ' ' &&
        next !== '';
    if (breaks) {
      pieces.push(piece);
      piece = '';
    }
  });
  if (piece) pieces.push(piece);
  return pieces;
}

/**
 * A cell's text in lines of at most `width` columns, broken only between pieces (piecesOf); a
 * piece longer than the width, which floorsOf leaves only when the table cannot fit otherwise,
 * is cut.
 * @param {string} text
 * @param {number} width
 */
function wrapCell(text, width) {
  return text
    .split('\n')
    .flatMap((paragraph) => {
      /** @type {string[]} */
      const lines = [];
      let line = '';
      for (const piece of piecesOf(paragraph)) {
        if (line && visible((line + piece).trimEnd()) > width) {
          lines.push(line.trimEnd());
          line = '';
        }
        line += line || !/^\s+$/.test(piece) ? piece : '';
        while (visible(line.trimEnd()) > width) {
          // the most of it that fits the width, in columns (at least one character)
          const chars = [...line];
          let fits = 1;
          while (fits < chars.length && visible(chars.slice(0, fits + 1).join('')) <= width) fits++;
          lines.push(chars.slice(0, fits).join(''));
          line = chars.slice(fits).join('');
        }
      }
      lines.push(line.trimEnd());
      return lines;
    })
    .map((line) => line.replaceAll(NBSP, ' '))
    .join('\n');
}

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

/**
 * The width text is wrapped to: the terminal's; off a terminal (a log, a pipe) $COLUMNS, else 80.
 * Never below 60.
 */
export const textWidth = (/** @type {{ columns?: number } | undefined} */ stream, env = process.env) =>
  Math.max(60, stream?.columns ?? (Number(env.COLUMNS) || 80));

/**
 * @param {ReportModel} model
 * @param {{ color?: boolean, width?: number }} [options]  width: lines of text wrap at it
 */
export function renderTerminal(model, { color = false, width = 80 } = {}) {
  const wrap = (/** @type {string} */ text) => wrapText(text, width);
  const parts = [model.title, ...(model.lines ?? [])].map(wrap);
  for (const { head, rows, align, widths } of model.tables) {
    const fitted = widths ? fitWidths(widths, width, [head, ...rows]) : fitContents([head, ...rows], width);
    if (fitted.reduce((a, b) => a + b, 0) + fitted.length + 1 > width) {
      // narrower than its columns' longest words: a row at a time, each figure under its name
      parts.push(stacked(head, rows, width));
      continue;
    }
    // cells are wrapped here, between words and after hyphens, never inside a number and its unit
    const fit = (/** @type {string[]} */ row) => row.map((cell, i) => wrapCell(String(cell), fitted[i] - 2));
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
 * A table too wide for the terminal, a row at a time: its first cell, then the others in one
 * indented paragraph, each after its column's name (an empty cell left out), wrapped between
 * figures, never inside one.
 * @param {string[]} head
 * @param {string[][]} rows
 * @param {number} width
 */
function stacked(head, rows, width) {
  const flat = (/** @type {unknown} */ text) =>
    String(text)
      .replace(/\s*\n\s*/g, ' ')
      .trim();
  return rows
    .map((row) => {
      const fields = row
        .slice(1)
        .map((cell, i) => [flat(head[i + 1]), flat(cell)])
        .filter(([, cell]) => cell !== '')
        // a name never ends a line without its value
        .map(([name, cell]) => `${name}:${NBSP}${cell}`)
        .join('; ');
      const paragraph = wrapText(fields, width - 2)
        .split('\n')
        .map((line) => `  ${line}`);
      return [wrapText(`${flat(head[0])}: ${flat(row[0])}`, width), ...(fields ? paragraph : [])].join('\n');
    })
    .join('\n');
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
export function renderMarkdown(model, { level = model.level ?? 3 } = {}) {
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

// How a default output fits a first screen: the line that says where the rest is, and the notes
// under an answer kept by rank while they fit 80 columns by 24 lines. Each command's answer (its
// decision first, then what it costs) is drawn beside its whole text, in its folder
// (src/commands/*/answer.js or model.js).

/** Where the rest is: the last line of every default output. */
export const MORE = 'more: --verbose prints every round; `report FILE --html page.html` draws them';

// what a default compare's answer fits: a terminal's first screen
export const SCREEN = { columns: 80, lines: 24 };
export const linesOf = (/** @type {string} */ text) => wrapText(text, SCREEN.columns).split('\n').length;

/**
 * The notes that fit `room` lines at SCREEN's width, in their order: those of rank 0 always,
 * then by rank (the lowest number first) while they fit.
 * @param {Array<{ text: string, rank: number }>} notes
 * @param {number} room
 * @returns {string[]}
 */
export function fitted(notes, room) {
  const kept = new Set(notes.filter((note) => note.rank === 0));
  let left = room - [...kept].reduce((sum, note) => sum + linesOf(note.text), 0);
  for (const note of [...notes].filter((one) => one.rank > 0).sort((a, b) => a.rank - b.rank)) {
    const lines = linesOf(note.text);
    if (lines > left) continue;
    kept.add(note);
    left -= lines;
  }
  return notes.filter((note) => kept.has(note)).map((note) => note.text);
}

// Text wrapped for a terminal: the one rule the tables, the notes and the default answer's line
// budget share.

// a number and its unit, kept on one line: `17.14 ms`, `54.8 MiB`, `20,552 ops/s`
export const NUMBER_UNIT = /(\d) (?=(?:ops\/s|[KMG]iB|B|µs|ms|ns|s|%|x|×)(?![\p{L}\d]))/gu;
export const NBSP = '\u00a0';

/**
 * Text wrapped at spaces to `width`, a number kept with its unit; only a word longer than the
 * width is cut.
 * @param {string} text
 * @param {number} width
 */
export const wrapText = (text, width) =>
  wrapAnsi(text.replace(NUMBER_UNIT, `$1${NBSP}`), width, { hard: true }).replaceAll(NBSP, ' ');

/**
 * Rows as columns without borders, as a listing prints them: each column as wide as its widest
 * cell (at least `min`), its cells to the left or the right; with a `width`, the last column
 * wrapped between words under itself within it.
 * @param {string[][]} rows
 * @param {{ align?: Array<'left'|'right'>, min?: number[], width?: number }} [how]
 * @returns {string[]}
 */
export function columnLines(rows, { align = [], min = [], width } = {}) {
  const last = rows[0].length - 1;
  const widths = rows[0].map((_, column) => Math.max(min[column] ?? 0, ...rows.map((row) => [...row[column]].length)));
  const padded = (/** @type {string} */ cell, /** @type {number} */ column) =>
    align[column] === 'right' ? cell.padStart(widths[column]) : cell.padEnd(widths[column]);
  return rows.flatMap((row) => {
    const head = row.slice(0, last).map((cell, column) => `${padded(cell, column)}  `);
    const indent = [...head.join('')].length;
    if (width === undefined) return [`${head.join('')}${padded(row[last], last)}`.trimEnd()];
    return wrapText(row[last], Math.max(20, width - indent))
      .split('\n')
      .map((line, i) => `${i === 0 ? head.join('') : ' '.repeat(indent)}${line}`);
  });
}
