// docs/options.md is checked against the option table: every option a command takes has its
// row, and every row names an option some command takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SPECS_OF } from '../../src/core/command-options.js';
import { flagName } from '../../src/core/option-spec.js';

const doc = readFileSync(new URL('../../docs/options.md', import.meta.url), 'utf8');
// the flag each table row starts with: | `--max-time` |, | `--env KEY=VALUE` |, | `--no-save` |
const rows = [...doc.matchAll(/^\| `(-{1,2}[a-z][a-z-]*)/gm)].map((match) => match[1].replace(/^--no-/, '--'));

test('every option of every command has a row in docs/options.md', () => {
  const missing = Object.entries(SPECS_OF).flatMap(([command, specs]) =>
    Object.entries(specs())
      .filter(([name, spec]) => !spec.hidden && !rows.includes(flagName(name)))
      .map(([name]) => `${command} ${flagName(name)}`),
  );
  assert.deepEqual(missing, []);
});

test('every row of docs/options.md names an option a command takes', () => {
  const known = new Set(Object.values(SPECS_OF).flatMap((specs) => Object.keys(specs()).map((name) => flagName(name))));
  for (const extra of ['--help', '--version']) known.add(extra);
  assert.deepEqual(
    rows.filter((flag) => !known.has(flag)),
    [],
  );
});
