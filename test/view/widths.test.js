// Every kept output at 80 and 60 columns, the answer and the whole text: no line wider than the
// terminal, and no word, number with its unit, or path broken inside (a cell wraps between
// words, after a hyphen, a comma or `=`).
import { loadSaved, renderSaved } from '../../src/commands/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { piecesOf } from '../../src/view/table.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
const FILES = readdirSync(SAVED).sort();

/** @param {import('../../src/saved/load.js').Saved} saved @param {boolean} verbose @param {number} width */
const modelsFor = (saved, verbose, width) => saved.kind.models(saved.document, { verbose, width, path: saved.path });

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
  /^(workers are|procs are|no significant difference|no verdict|inconclusive: |workers and procs are equal|workers\/procs ratio|A\/B ratio|A and B|A is|B is|best: |no candidate|workers faster at|│ [\w-]+ +│ .+ │ (holds|does not hold|inconclusive))/m;

// the commands that decide something: an audit, and workers or procs alone, list what they saw
const decides = (/** @type {string} */ file) => {
  const saved = loadSaved(`${SAVED}${file}`);
  return (
    saved.kind.name === 'reproduce' ||
    (saved.kind.name !== 'audit' && !['workers', 'procs'].includes(saved.document.command))
  );
};

for (const file of FILES.filter(decides))
  test(`${file}: the answer says its verdict within its first 5 lines; a compare's on line 2 alone, at most 4 lines before its table, 24 in all`, () => {
    const saved = { ...loadSaved(`${SAVED}${file}`), path: `test/fixtures/saved/${file}` };
    const lines = renderSaved(saved, 'terminal', { columns: 80, isTTY: false, write() {} })
      .trimEnd()
      .split('\n');
    assert.ok(
      lines.slice(0, 5).some((line) => VERDICT.test(line)),
      `no verdict in the first 5 lines:\n${lines.slice(0, 5).join('\n')}`,
    );
    if (saved.kind.name !== 'compare' || saved.document.points[0].trace) return;
    // the line after the title (line 2 unless the title's setting takes two): which mode is
    // faster, by how much, with its interval, and nothing more
    const verdict = lines.findIndex((line) => VERDICT.test(line));
    // line 3 only where the title took two lines (a long setting, an unfinished run's status)
    const at = lines.slice(0, verdict).join('\n').length;
    assert.ok(verdict === 1 || (verdict === 2 && at > 80), `the verdict on line ${verdict + 1}`);
    const said = lines
      .slice(
        verdict,
        // a pool run names its pool next, whose runtimes are the arms (document/pool-words.js)
        lines.findIndex((line, i) => i > verdict && /^(with workers|through |┌)/.test(line)),
      )
      .join(' ');
    assert.match(
      said,
      /\((workers\/procs [\d.]+, )?95% CI [\d.]+-[\d.]+( spans 1)?\)$|^no verdict: [^;]+$|too few for a meaningful interval \(3 or more\)$/,
      said,
    );
    assert.doesNotMatch(said, /;/, `more than the verdict: ${said}`);
    const table = lines.findIndex((line) => line.startsWith('┌'));
    const pool = lines.findIndex((line) => line.startsWith('through '));
    const poolLines = pool === -1 || table === -1 ? 0 : table - pool;
    // the verdict is one sentence, which may wrap (an inconclusive one names both bounds)
    const verdictLines =
      lines.findIndex((line, i) => i > verdict && (line === '' || /^(with |through |┌)/.test(line))) - verdict;
    if (table !== -1)
      assert.ok(table - poolLines - Math.max(0, verdictLines - 1) <= 4, `${table} lines before the table`);
    // each row a line: no row name takes a second
    const rows = lines.slice(
      lines.findIndex((line) => line.startsWith('├')) + 1,
      lines.findIndex((line) => line.startsWith('└')),
    );
    for (const row of rows) assert.doesNotMatch(row, /^│ +│/, `a row on two lines:\n${rows.join('\n')}`);
    assert.ok(lines.length <= 24, `${lines.length} lines:\n${lines.join('\n')}`);
  });
