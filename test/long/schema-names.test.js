// The runs schema-names-quick.test.js leaves out for their time or their needs: advise, a
// traced compare and an audit (root and bpftrace, which CI installs) write only fields the
// results schema names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { unnamedFields } from '../saved/unnamed.js';

/** @param {string[]} args */
async function saved(args) {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-schema-'));
  const result = await cli([...args, '--out', out]);
  assert.equal(result.exitCode, 0, result.stderr);
  const [file] = readdirSync(out).filter((name) => name.endsWith('.json'));
  return JSON.parse(readFileSync(join(out, file), 'utf8'));
}

test('advise --quick: every field it saves is named by the results schema', async () => {
  assert.deepEqual(unnamedFields(await saved(['advise', '--quick'])), []);
});

test('compare --quick --trace and trace --pid: every field they save is named', async () => {
  assert.equal(process.getuid?.(), 0, 'tracing needs root, which CI has');
  assert.deepEqual(unnamedFields(await saved(['compare', '--quick', '--trace', '--mount-tracefs'])), []);
  const sleeper = spawn('sleep', ['20']);
  try {
    assert.deepEqual(unnamedFields(await saved(['trace', '--pid', String(sleeper.pid), '--seconds', '2'])), []);
  } finally {
    sleeper.kill();
  }
});
