import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KINDS, kindOf, loadSaved } from '../../src/kinds/index.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
const FIELDS = ['command', 'environment', 'status', 'settings', 'nodes', 'tasks', 'title', 'resumeWith', 'models'];

test('every kind answers every question a reader asks, and has its points or says why not', () => {
  assert.deepEqual(
    KINDS.map((kind) => kind.name),
    ['compare', 'sweep', 'advise', 'audit', 'reproduce'],
  );
  for (const kind of KINDS) {
    for (const field of [...FIELDS, 'section']) assert.equal(typeof kind[field], 'function', `${kind.name}.${field}`);
    assert.ok(kind.points ? kind.noRounds === null : typeof kind.noRounds === 'string', kind.name);
  }
});

test('each command that saves a document has one kind; a reproduce file is told apart by its first line', () => {
  const commands = KINDS.flatMap((kind) => kind.commands);
  assert.equal(new Set(commands).size, commands.length, 'no command in two kinds');
  assert.deepEqual([...commands].sort(), ['advise', 'compare', 'procs', 'sweep', 'trace', 'workers']);
  assert.equal(kindOf({ command: 'workers' }).name, 'compare');
  assert.equal(kindOf({ command: 'trace' }).name, 'audit');
  assert.throws(() => kindOf({ command: 'nope' }), /no kind of saved file for the command nope/);
});

test('every saved fixture loads as the kind its command names, with points where its kind has them', () => {
  for (const name of readdirSync(SAVED)) {
    const { kind, document } = loadSaved(`${SAVED}${name}`);
    if (kind.name === 'reproduce') {
      assert.ok(name.endsWith('.jsonl'), name);
      assert.ok(kind.points?.(document).length, name);
      continue;
    }
    assert.equal(kindOf(document), kind, name);
    assert.ok(kind.commands.includes(kind.command(document)), name);
    if (kind.points) assert.ok(kind.points(document).length > 0, name);
  }
});
