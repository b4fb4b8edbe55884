// A saved file is data a person may have edited: a figure of the wrong type planted anywhere in
// any kind of saved document is refused as a usage error naming the field, or the document still
// reads without NaN, undefined or Infinity; it never prints garbage or throws a TypeError. A
// sample of every saved kind's numbers is planted in test/long/planted.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planted } from './plant.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));

// the places an earlier schema left unchecked, where a planted string printed NaN or threw
const KNOWN = [
  ['audit.json', 'trace.read.avgNs'],
  ['audit.json', 'trace.writeStacks.0.count'],
  ['audit.json', 'trace.bySyscall.write.1.count'],
  ['audit-idle.json', 'trace.read.totalNs'],
  ['compare-tradeoff-2.json', 'account.lines.9.modes.procs.ci95.1'],
  ['compare-tradeoff-2.json', 'account.lines.10.modes.procs.mean'],
  ['sweep-quick.json', 'scaling.0.procs.steps.0.efficiency'],
  ['trace-compare.json', 'trace.ratios.avgWrite.ci95.1'],
  ['workers.json', 'rounds.1.workers.workers.1.startNs'],
  ['sweep-tradeoff.json', 'points.1.account.lines.6.modes.workers.mean'],
];

test('a string planted where an earlier schema checked nothing is refused by name', () => {
  for (const [file, field] of KNOWN) {
    const document = JSON.parse(readFileSync(join(SAVED, file), 'utf8'));
    const wrong = planted(file, document, field.split('.'));
    assert.equal(wrong, null, `${file} ${field}: ${wrong}`);
  }
});
