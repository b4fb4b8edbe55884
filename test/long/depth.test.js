// Checks of depth that take seconds each, beyond test/cli/'s one run of each path: a sweep and a
// reproduce run printed again from their saved files, reproduce's adaptive stop on a real run,
// and a sweep over two Node binaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, records, reproduceWorkspace as workspace, resultsFile, secondNode } from '../helpers.js';
import { EXPERIMENTS } from '../../src/commands/reproduce/experiments.js';
import { ExperimentData } from '../../src/commands/reproduce/data.js';
import { cellsUnder } from '../../src/commands/reproduce/protocols.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-results-test-'));
const savedPath = (result) => result.stderr.match(/^mmapbench: saved (\S+)$/m)?.[1];

test('sweep and reproduce results are read back by report as their runs printed them', async () => {
  const out = folder();
  const sweep = await cli(['sweep', '-k', '1,2', '--smoke', '--out', out]);
  assert.equal(sweep.exitCode, 0, sweep.stderr);
  assert.match(savedPath(sweep), /\/sweep-[^/]+\.json$/);
  assert.equal((await cli(['report', savedPath(sweep)])).stdout, sweep.stdout);

  const reproduce = await cli(['reproduce', 'gap', '--quick', '--out', out]);
  assert.equal(reproduce.exitCode, 0, reproduce.stderr);
  const file = join(
    out,
    readdirSync(out).find((name) => /^reproduce-.*\.json$/.test(name)),
  );
  assert.equal((await cli(['report', file])).stdout, reproduce.stdout);
});

for (const [rule, extra, enough] of /** @type {const} */ ([
  ['every claim is decided through its confidence sequence', [], 'decided'],
  ["every claim's interval is within --precision 5", ['--precision', '5'], 'narrow'],
]))
  test(`adaptive rounds: at least 5, then more until ${rule}, at most --max-rounds`, async () => {
    const w = workspace();
    const result = await cli(['reproduce', 'gap', '--duration', '0.05', '--max-rounds', '6', ...extra, '--out', w.out]);
    assert.equal(result.exitCode, 0, result.stderr);
    const all = records(resultsFile(w.out));
    assert.equal(all.filter((r) => r.type === 'calibration').length, 1, 'one calibration per variant');
    const cells = all.filter((r) => r.type === 'cell');
    const rounds = Math.max(...cells.map((r) => r.round));
    assert.ok(rounds === 5 || rounds === 6, `${rounds} rounds`);
    const firstFive = cells.filter((r) => r.round <= 5);
    // the claims read fresh (their workers' first 2,000 ops) and once warm: each decided through
    // the sequence (valid however often it is looked at), or with --precision each narrow enough
    const metAtFive = ['fresh', 'steady'].every((reading) =>
      EXPERIMENTS[0]
        .verdicts(
          new ExperimentData(cellsUnder(firstFive, reading), { look: enough === 'decided' ? 'sequence' : 'fixed' }),
        )
        .every((v) =>
          enough === 'decided' ? v.verdict !== 'inconclusive' : v.halfWidth !== null && v.halfWidth <= 0.05,
        ),
    );
    assert.equal(
      rounds === 5,
      metAtFive,
      `a sixth round ran exactly when five left a claim short of the rule (${rule})`,
    );
  });

const { path: node24, missing, skip } = await secondNode();

test('two --node binaries: a point for each, labelled with the version it reported', { skip }, async () => {
  assert.ok(!missing, `${node24} is missing: .ci/run must run \`node scripts/install-node.js 24\` first`);
  const args = ['sweep', '--task', 'fs-promises', '--node', process.execPath, '--node', node24, '--smoke'];
  const result = await cli([...args, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = JSON.parse(result.stdout);
  assert.deepEqual(
    doc.points.map((point) => point.node),
    [
      { path: process.execPath, version: process.version, poolSize: Buffer.poolSize },
      // each point's Node's own default pool, read from it: 64 KiB on 24.18.0 and later
      { path: node24, version: doc.points[1].node.version, poolSize: 64 * 1024 },
    ],
  );
  assert.match(doc.points[1].node.version, /^v24\./);
  const table = await cli(args);
  assert.equal(table.exitCode, 0, table.stderr);
  assert.match(table.stdout, new RegExp(`^│ ${process.version.replaceAll('.', '\\.')} +│`, 'm'));
  assert.match(table.stdout, /^│ v24\.\d+\.\d+ +│/m);
  // off a terminal lines wrap at 80 columns: a long path goes on over the next line
  const version = doc.points[1].node.version;
  assert.ok(table.stdout.replaceAll('\n', '').includes(`node ${version}: ${node24}`), table.stdout);
});
