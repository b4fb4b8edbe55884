// The API's option types are made from the option table: the file kept in src/ is what the
// generator writes now, so a new or changed option cannot leave its type behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { optionTypes, TYPES_FILE } from '../../scripts/api-types.js';
import { NOT_IN_API, SPECS_OF } from '../../src/core/options.js';

test('src/core/option-types.js is what scripts/api-types.js makes of the option table', () => {
  assert.equal(readFileSync(TYPES_FILE, 'utf8'), optionTypes(), 'run `node scripts/api-types.js` and commit it');
});

test('every option a command takes has a type, except what only the command line does', () => {
  const text = optionTypes();
  for (const [command, specs] of Object.entries(SPECS_OF)) {
    const typedef = text.slice(text.indexOf(`\`${command}\`'s options`));
    const block = typedef.slice(0, typedef.indexOf('*/'));
    for (const [name, spec] of Object.entries(specs())) {
      const typed = block.includes(`} [${name}]  `);
      assert.equal(typed, !spec.hidden && !(name in NOT_IN_API[command]), `${command} ${name}`);
    }
  }
});
