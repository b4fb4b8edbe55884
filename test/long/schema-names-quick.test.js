// Each kind of run, fresh from the CLI, writes only fields the results schema names: a field
// added to a document is added to its one definition (src/saved/results.schema.json), which
// every reader checks a file by. advise, a traced compare and an audit are in
// test/long/schema-names.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { unnamedFields } from '../saved/unnamed.js';

for (const args of [
  ['compare', '--quick', '--cycles', '2'],
  ['compare', '--quick', '--aa', 'procs'],
  ['compare', '--quick', '--fault', 'abort'],
  ['compare', '--quick', '--pool', 'tinypool'],
  ['sweep', '--quick', '-k', '1,2', '--pool', 'workerpool'],
  ['sweep', '--quick', '-k', '1,2'],
  ['reproduce', 'gap', '--quick'],
])
  test(`${args.join(' ')}: every field it saves is named by the results schema`, async () => {
    const out = mkdtempSync(join(tmpdir(), 'mmapbench-schema-'));
    const result = await cli([...args, '--out', out]);
    assert.equal(result.exitCode, 0, result.stderr);
    const [file] = readdirSync(out).filter((name) => name.endsWith('.json'));
    assert.deepEqual(unnamedFields(JSON.parse(readFileSync(join(out, file), 'utf8'))), []);
  });
