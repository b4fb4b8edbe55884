// How a default output fits a first screen: the line that says where the rest is, and the notes
// under an answer kept by rank while they fit 80 columns by 24 lines. Each command's answer (its
// decision first, then what it costs) is drawn beside its whole text: compare-answer.js,
// sweep.js, advice.js, trace.js, commands/reproduce/models.js.
import { wrapText } from '../words/wrap.js';

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
