// What a run leaves behind and what reads it back: the saved document, `report` (terminal,
// markdown) and `diff`, end to end through the real CLI; diff of two real runs and the HTML page
// in a real browser are in test/long/results.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture } from '../helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-results-test-'));
const savedFixture = (name) => fixture(`saved/${name}`);
const savedPath = (result) => result.stderr.match(/^mmapbench: saved (\S+)$/m)?.[1];
const lastLine = (text) => text.trimEnd().split('\n').at(-1);

test('compare saves the --json document, says where last, and report prints it exactly as the run did', async () => {
  const out = folder();
  for (const format of [[], ['--markdown']]) {
    const live = await cli(['compare', '--smoke', '--out', out, ...format]);
    assert.equal(live.exitCode, 0, live.stderr);
    const path = savedPath(live);
    assert.equal(lastLine(live.stderr), `mmapbench: saved ${path}`);
    assert.match(path, new RegExp(`^${out}/compare-\\d{8}T\\d{6}\\.\\d{3}Z\\.json$`));
    const again = await cli(['report', path, ...format]);
    assert.equal(again.exitCode, 0, again.stderr);
    assert.equal(again.stdout, live.stdout);
  }
  assert.equal(readdirSync(out).length, 2, 'one file per run, nothing else left in --out');
  const json = await cli(['compare', '--smoke', '--json', '--out', out]);
  const document = JSON.parse(json.stdout);
  assert.deepEqual(JSON.parse(readFileSync(savedPath(json), 'utf8')), document);
  assert.equal(document.schema, 1);
});

test('--no-save writes nothing', async () => {
  const out = folder();
  const none = await cli(['compare', '--smoke', '--no-save', '--out', out]);
  assert.equal(none.exitCode, 2, 'both is a contradiction');
  const skipped = await cli(['compare', '--smoke', '--no-save']);
  assert.equal(skipped.exitCode, 0, skipped.stderr);
  assert.equal(savedPath(skipped), undefined);
  assert.deepEqual(readdirSync(out), []);
});

test('an --out that cannot take the results stops the run before it measures anything', async () => {
  const dir = folder();
  const file = join(dir, 'a-file');
  writeFileSync(file, 'kept\n');
  const result = await cli(['compare', '--smoke', '--out', file]);
  assert.equal(result.exitCode, 2);
  assert.equal(result.stdout, '', 'nothing ran');
  assert.match(result.stderr, /^mmapbench: --out .*a-file: a file is in the way of a folder .*; pass --out a folder$/);
  assert.equal(readFileSync(file, 'utf8'), 'kept\n');
});

test('report and diff refuse what is not a complete results document: one line, exit 2, nothing written', async () => {
  const dir = folder();
  // a whole document a run saved, and broken copies of it
  const whole = join(dir, 'whole.json');
  const text = readFileSync(savedFixture('compare-quick.json'), 'utf8');
  writeFileSync(whole, text);
  writeFileSync(join(dir, 'cut.json'), text.slice(0, text.length / 2));
  writeFileSync(join(dir, 'newer.json'), JSON.stringify({ ...JSON.parse(text), schema: 99 }));
  const cases = [
    [['report', join(dir, 'cut.json')], /cut\.json is cut off or damaged/],
    [['report', join(dir, 'newer.json')], /newer\.json is from a newer mmapbench .*upgrade mmapbench/],
    [['report', join(dir, 'nothing.json')], /nothing\.json: no such file/],
    [['report', whole, '--html', join(dir, 'no', 'such', 'page.html')], /the folder .*no\/such does not exist/],
    [['report', whole, '--html', whole], /is one of the results files being read/],
    [['diff', whole], /^mmapbench: missing arguments: it is `mmapbench diff <base> <new>`/],
    [['diff', whole, join(dir, 'cut.json')], /cut off or damaged/],
  ];
  const before = readdirSync(dir).sort();
  for (const [args, message] of cases) {
    const result = await cli(args);
    assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    assert.equal(result.stdout, '');
  }
  assert.deepEqual(readdirSync(dir).sort(), before, 'nothing written, nothing changed');
  assert.equal(readFileSync(whole, 'utf8'), text);
});
