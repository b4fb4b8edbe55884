// Text wrapped for a terminal: the one rule the tables, the notes and the default answer's line
// budget share.
import wrapAnsi from 'wrap-ansi';

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
