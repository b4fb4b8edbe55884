// A string planted in a sample of every saved kind's numbers (test/saved/planted.test.js plants
// where an earlier schema checked nothing): each is refused as a usage error naming the field, or
// the document reads clean. Long: it renders every file about a dozen times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numbers, planted } from '../saved/plant.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));

test('a string planted in any of a sample of every saved kind’s numbers is refused by name or reads clean', () => {
  const wrongs = [];
  for (const file of readdirSync(SAVED).filter((name) => name.endsWith('.json'))) {
    const document = JSON.parse(readFileSync(join(SAVED, file), 'utf8'));
    const paths = numbers(document);
    // twelve a file, spread over the document
    const stride = Math.max(1, Math.floor(paths.length / 12));
    for (let i = 0; i < paths.length; i += stride) {
      const wrong = planted(file, document, paths[i]);
      if (wrong) wrongs.push(`${file} ${paths[i].join('.')}: ${wrong}`);
    }
  }
  assert.deepEqual(wrongs, []);
});
