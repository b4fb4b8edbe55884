// Every kept output at 80 and 60 columns, the answer and the whole text: no line wider than the
// terminal, and no word, number with its unit, or path broken inside (a cell wraps between
// words, after a hyphen, a comma or `=`).
import { loadSaved, modelsOf, renderSaved } from '../../src/kinds/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { piecesOf } from '../../src/view/table.js';
import { reproduceAnswer } from '../../src/models/answer.js';
import { savedReportModels } from '../../src/reproduce/models.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
const FILES = readdirSync(SAVED).sort();

/** @param {import('../../src/saved/load.js').Saved} saved @param {boolean} verbose @param {number} width */
function modelsFor(saved, verbose, width) {
  if (saved.kind.name !== 'reproduce') return modelsOf(saved.document, { verbose, width });
  const models = savedReportModels({ ...saved.document, path: saved.path });
  return verbose ? models : reproduceAnswer(models);
}

for (const file of FILES)
  for (const width of [80, 60])
    for (const verbose of [false, true])
      test(`${file} at ${width} columns${verbose ? ', --verbose' : ''}: fits, and breaks no word`, () => {
        // named as in the repository: a path as long as the checkout's would say nothing of the table
        const saved = { ...loadSaved(`${SAVED}${file}`), path: `test/fixtures/saved/${file}` };
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

// where each kind of output says its verdict
// (reproduce's: a claim's row, its verdict in the last column)
const VERDICT =
  /^(workers are|procs are|no significant difference|no verdict|workers\/procs ratio|A\/B ratio|A and B|A is|B is|best: |no candidate|workers faster at|│ [\w-]+ +│ .+ │ (holds|does not hold|inconclusive))/m;

// the commands that decide something: an audit, and workers or procs alone, list what they saw
const decides = (/** @type {string} */ file) => {
  const saved = loadSaved(`${SAVED}${file}`);
  return (
    saved.kind.name === 'reproduce' ||
    (saved.kind.name !== 'audit' && !['workers', 'procs'].includes(saved.document.command))
  );
};

for (const file of FILES.filter(decides))
  test(`${file}: the answer says its verdict within its first 5 lines; a compare's fits 32, and 6 more with --cycles`, () => {
    const saved = { ...loadSaved(`${SAVED}${file}`), path: `test/fixtures/saved/${file}` };
    const lines = renderSaved(saved, 'terminal', { isTTY: false, write() {} })
      .trimEnd()
      .split('\n');
    assert.ok(
      lines.slice(0, 5).some((line) => VERDICT.test(line)),
      `no verdict in the first 5 lines:\n${lines.slice(0, 5).join('\n')}`,
    );
    // 25 lines before the app's two rows and its line (28-29 where the shell sets NODE_EXTRA_CA_CERTS),
    // then the end's two rows and its verdict clause (31-32); --cycles adds two rows and its note
    const cycles = (saved.document.config?.end?.cycles ?? 1) > 1;
    if (saved.kind.name === 'compare' && !saved.document.trace)
      assert.ok(lines.length <= 32 + (cycles ? 6 : 0), `${lines.length} lines`);
  });
