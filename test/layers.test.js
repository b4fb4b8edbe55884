// The layer check (npm run lint: dependency-cruiser, .dependency-cruiser.cjs) sees a type a JSDoc
// comment imports as it sees an import: planted in a tree of its own with src/'s layers, an
// upward `import('…')` in a comment fails it, as an upward import does, and a downward one
// passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/**
 * A tree with two layers' files, and what dependency-cruiser says of it.
 * @param {string} words  src/words/planted.js's text
 */
async function cruise(words) {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-layers-'));
  for (const folder of ['src/words', 'src/view']) mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, 'src/view/table.js'), '/** @typedef {{ title: string }} Model */\nexport const drawn = 1;\n');
  writeFileSync(join(dir, 'src/words/planted.js'), words);
  writeFileSync(
    join(dir, 'src/view/uses.js'),
    "/** @type {import('../words/planted.js').Said} */\nexport const said = null;\n",
  );
  return execa(join(ROOT, 'node_modules/.bin/depcruise'), ['--config', CONFIG, 'src'], { cwd: dir, reject: false });
}

test(
  'a JSDoc type imported from a layer above fails the layer check; from below it passes',
  { timeout: 60_000 },
  async () => {
    const upward = await cruise(
      "/** @typedef {import('../view/table.js').Model} Said */\n/** @type {Said | null} */\nexport const said = null;\n",
    );
    assert.notEqual(upward.exitCode, 0, upward.stdout);
    assert.match(
      upward.stdout,
      /words-errors-escape-version-looks-down: src\/words\/planted\.js → src\/view\/table\.js/,
    );
    const clean = await cruise('/** @typedef {{ text: string }} Said */\nexport const said = null;\n');
    assert.equal(clean.exitCode, 0, clean.stdout);
  },
);
