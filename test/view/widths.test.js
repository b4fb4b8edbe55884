// Every kept output at 80 and 60 columns, the answer and the whole text: no line wider than the
// terminal, and no word, number with its unit, or path broken inside (a cell wraps between
// words, after a hyphen, a comma or `=`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadResults } from '../../src/results/load.js';
import { piecesOf } from '../../src/report/table.js';
import { reproduceAnswer } from '../../src/report/answer-model.js';
import { savedReportModels } from '../../src/reproduce/models.js';
import { modelsOf, renderSaved } from '../../src/view/index.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
const FILES = readdirSync(SAVED).sort();

/** @param {import('../../src/results/load.js').Saved} saved @param {boolean} verbose @param {number} width */
function modelsFor(saved, verbose, width) {
  if (saved.kind !== 'reproduce') return modelsOf(saved.document, { verbose, width });
  const models = savedReportModels(/** @type {any} */ (saved));
  return verbose ? models : reproduceAnswer(models);
}

for (const file of FILES)
  for (const width of [80, 60])
    for (const verbose of [false, true])
      test(`${file} at ${width} columns${verbose ? ', --verbose' : ''}: fits, and breaks no word`, () => {
        // named as in the repository: a path as long as the checkout's would say nothing of the table
        const saved = { ...loadResults(`${SAVED}${file}`), path: `test/fixtures/saved/${file}` };
        const text = renderSaved(saved, 'terminal', { columns: width, isTTY: false, write() {} }, { verbose });
        const lines = text.split('\n');
        const wide = lines.filter((line) => [...line].length > width);
        assert.deepEqual(wide, [], `lines wider than ${width}`);
        const flat = lines.map((line) => line.replace(/[│┌┐└┘├┤┬┴┼─]/g, ' ')).join('\n');
        for (const model of modelsFor(saved, verbose, width)) {
          for (const table of model.tables)
            for (const row of [table.head, ...table.rows])
              for (const cell of row)
                for (const piece of String(cell).split('\n').flatMap(piecesOf)) {
                  const whole = piece.trim().replaceAll('\u00a0', ' ');
                  if (whole) assert.ok(flat.includes(whole), `"${whole}" was broken (a cell of ${model.title})`);
                }
          for (const note of [model.title, ...(model.lines ?? []), ...model.notes])
            for (const word of note.split(/\s+/))
              if (word) assert.ok(flat.includes(word), `"${word}" was broken (${model.title})`);
        }
      });
