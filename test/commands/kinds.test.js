import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KINDS, kindOf, loadSaved } from '../../src/commands/index.js';

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

// what each fixture is, by its name: the kind its file must load as, and the command that kind
// names for it (trace-compare.json is a traced compare, audit*.json an audit of a process)
const EXPECTED = {
  'advise-message.json': ['advise', 'advise'],
  'advise.json': ['advise', 'advise'],
  'audit-idle.json': ['audit', 'trace'],
  'audit.json': ['audit', 'trace'],
  'reproduce.jsonl': ['reproduce', 'reproduce'],
  'reproduce-fresh.jsonl': ['reproduce', 'reproduce'],
  'sweep-quick.json': ['sweep', 'sweep'],
  'sweep-ramp.json': ['sweep', 'sweep'],
  'sweep-tradeoff.json': ['sweep', 'sweep'],
  'sweep.json': ['sweep', 'sweep'],
  'trace-compare.json': ['compare', 'compare'],
  'workers.json': ['compare', 'workers'],
};
const expected = (/** @type {string} */ name) =>
  EXPECTED[name] ?? (name.startsWith('compare') ? ['compare', 'compare'] : null);

test('every saved fixture loads as the kind its name says, with points where its kind has them', () => {
  const names = readdirSync(SAVED);
  assert.ok(names.length >= 19, 'the fixtures are there');
  for (const name of names) {
    const want = expected(name);
    assert.ok(want, `${name}: add what it is to EXPECTED`);
    const { kind, document } = loadSaved(`${SAVED}${name}`);
    assert.deepEqual([kind.name, kind.command(document)], want, name);
    if (kind.points) assert.ok(kind.points(document).length > 0, name);
    else assert.equal(typeof kind.noRounds, 'string', name);
  }
});
