// The results schema names every field a run writes: every saved fixture, of every kind and
// layout (the CLI's fresh runs are test/long/schema-names-quick.test.js's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSaved } from '../../src/commands/index.js';
import { unnamedFields } from './unnamed.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));

test('every field of every saved fixture is named by the results schema', () => {
  for (const name of readdirSync(SAVED)) {
    const { document } = loadSaved(`${SAVED}${name}`);
    assert.deepEqual(unnamedFields(document), [], name);
  }
});

test('a field the schema does not name is found, wherever it is', () => {
  const { document } = loadSaved(`${SAVED}compare-ramp.json`);
  const edited = structuredClone(document);
  edited.surprise = 1;
  edited.points[0].rounds[0].workers.workers[0].surprise = 2;
  assert.deepEqual(unnamedFields(edited).sort(), ['points[].rounds[].workers.workers[].surprise', 'surprise']);
});
