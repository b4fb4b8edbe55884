import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KINDS, kindOf, loadSaved } from '../../src/commands/index.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
test("every kind answers a reader's questions of its own fixtures: what wrote it, where, how it ended, its title, its models", () => {
  assert.deepEqual(
    KINDS.map((kind) => kind.name),
    ['compare', 'sweep', 'advise', 'audit', 'reproduce'],
  );
  const shown = { verbose: false, width: 80, path: 'f' };
  for (const name of readdirSync(SAVED)) {
    const { kind, document } = loadSaved(`${SAVED}${name}`);
    assert.ok(kind.commands.includes(kind.command(document)), name);
    assert.match(kind.environment(document).node.version, /^v\d+\.\d+\.\d+$/, name);
    assert.match(kind.status(document), /^(complete|failed|interrupted|incomplete|ended)/, name);
    assert.ok(kind.title(document).length > 0, name);
    assert.match(kind.nodes(document), /v\d+/, name);
    const settings = kind.settings(document);
    assert.ok(settings.protocol === undefined || typeof settings.protocol === 'string', name);
    // compare, sweep, advise and reproduce go on with --resume; an audit names the command that starts anew
    const why = kind.resumeWith(document);
    if (['compare', 'sweep', 'advise', 'reproduce'].includes(kind.name)) assert.equal(why, null, name);
    else assert.match(String(why), /`mmapbench trace`/, name);
    const models = kind.models(document, shown);
    assert.ok(models.length > 0 && models.every((model) => typeof model.title === 'string'), name);
    // a kind has its points, or says why it has none
    assert.ok(kind.points ? kind.noRounds === null : typeof kind.noRounds === 'string', name);
  }
});

test('each command that saves a document has one kind', () => {
  const commands = KINDS.flatMap((kind) => kind.commands);
  assert.equal(new Set(commands).size, commands.length, 'no command in two kinds');
  assert.deepEqual([...commands].sort(), ['advise', 'compare', 'procs', 'reproduce', 'sweep', 'trace', 'workers']);
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
  'reproduce-gap.json': ['reproduce', 'reproduce'],
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
