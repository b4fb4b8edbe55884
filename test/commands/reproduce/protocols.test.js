// What reproduce decides a claim on: the investigation's claims on their workers' first 2,000
// ops (each cell's warm-up) by default, with the same cells once warm beside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSaved } from '../../../src/commands/index.js';
import { writeHtmlReport } from '../../../src/commands/report/html.js';
import { fixture } from '../../helpers.js';
import { EXPERIMENTS } from '../../../src/commands/reproduce/experiments.js';
import { cellsUnder, protocolsOf, readingsOf } from '../../../src/commands/reproduce/protocols.js';
import { experimentSection } from '../../../src/commands/reproduce/sections.js';
import { summaryModel } from '../../../src/commands/reproduce/summary.js';

const byName = Object.fromEntries(EXPERIMENTS.map((e) => [e.name, e]));

test('the default reads fresh then steady from one set of steady cells; a run that cannot read fresh reads steady', () => {
  assert.deepEqual(protocolsOf('fresh'), ['steady']);
  assert.deepEqual(readingsOf('fresh', byName.gap), ['fresh', 'steady']);
  assert.deepEqual(readingsOf('fresh', byName.reuse), ['fresh', 'steady']);
  // --quick warms up by a fixed count: no batch was timed
  assert.deepEqual(readingsOf('fresh', byName.gap, { quick: true }), ['steady']);
  // claims on the window's trace, and the related sources' own benchmarks at their own k
  assert.deepEqual(readingsOf('fresh', byName.locks), ['steady']);
  assert.deepEqual(readingsOf('fresh', byName.clog), ['steady']);
  // a file from before the fresh reading keeps what it was decided on
  assert.deepEqual(readingsOf('steady', byName.gap), ['steady']);
  assert.deepEqual(readingsOf(undefined, byName.gap), ['steady']);
  // both: the published cells decide, the steady ones beside
  assert.deepEqual(protocolsOf('both'), ['steady', 'published']);
  assert.deepEqual(readingsOf('both', byName.gap), ['published', 'steady']);
});

/**
 * Six rounds of gap whose workers do their first 2,000 ops at half the procs' rate and run 1.2x
 * faster once warm; `ramp: false` leaves the warm-up untimed.
 */
function gapCells({ ramp = true } = {}) {
  const jitter = [0.97, 1.03, 1.0, 0.99, 1.01, 1.0];
  return [1, 2, 3, 4, 5, 6].flatMap((round) =>
    /** @type {const} */ (['workers', 'procs']).map((mode) => {
      const noise = jitter[(round + mode.length) % jitter.length];
      const first = (mode === 'workers' ? 10_000 : 20_000) * noise;
      return {
        type: 'cell',
        experiment: 'gap',
        variant: 'default',
        round,
        mode,
        cell: {
          throughput: (mode === 'workers' ? 48_000 : 40_000) * noise,
          ...(ramp ? { ramp: { firstOps: 2000, firstThroughput: first, toFullMs: 100, toFullOps: 3000 } } : {}),
        },
      };
    }),
  );
}

test('fresh cells are the steady ones with the throughput of their first 2,000 ops', () => {
  assert.ok(
    cellsUnder(gapCells(), 'fresh').every((c, i) => c.cell.throughput === gapCells()[i].cell.ramp?.firstThroughput),
  );
  // a cell whose warm-up was not timed has no fresh throughput, never its window's
  assert.ok(cellsUnder(gapCells({ ramp: false }), 'fresh').every((c) => c.cell.throughput === undefined));
});

test('gap decided fresh: procs twice as fast for their first 2,000 ops holds, though warm workers are faster', () => {
  const variants = byName.gap.variants({ jemalloc: { path: null } }).map((v) => ({ ...v, protocol: 'steady' }));
  const section = experimentSection(byName.gap, variants, /** @type {any} */ (gapCells()), {
    k: 2,
    cores: 2,
    protocols: ['fresh', 'steady'],
  });
  assert.deepEqual(
    section.verdicts.map((v) => v.verdict),
    ['holds', 'holds'],
  );
  assert.deepEqual(
    section.byProtocol.steady.map((v) => v.verdict),
    ['does not hold', 'does not hold'],
  );
  assert.match(
    section.model.notes.join('\n'),
    /fresh workers and warm workers get different verdicts on 2 of 2 claims \(fresh decides\)/,
  );
  // the fresh table's medians are the first 2,000 ops' rates
  assert.match(JSON.stringify(section.model.tables[0]), /10,000/);
  // untimed warm-ups decide nothing fresh
  const untimed = experimentSection(byName.gap, variants, /** @type {any} */ (gapCells({ ramp: false })), {
    k: 2,
    cores: 2,
    protocols: ['fresh', 'steady'],
  });
  assert.deepEqual(
    untimed.verdicts.map((v) => v.verdict),
    ['inconclusive', 'inconclusive'],
  );
});

test('the summary gives a column per reading, the deciding one first, and - where an experiment has no such reading', () => {
  const sections = [
    {
      name: 'gap',
      verdicts: [{ claim: 'a', verdict: 'holds', text: '', halfWidth: 0.01 }],
      byProtocol: {
        fresh: [{ claim: 'a', verdict: 'holds', text: '', halfWidth: 0.01 }],
        steady: [{ claim: 'a', verdict: 'does not hold', text: '', halfWidth: 0.01 }],
      },
    },
    {
      name: 'locks',
      verdicts: [{ claim: 'b', verdict: 'holds', text: '', halfWidth: 0.01 }],
      byProtocol: { steady: [{ claim: 'b', verdict: 'holds', text: '', halfWidth: 0.01 }] },
    },
  ];
  const model = summaryModel(sections);
  assert.deepEqual(model.tables[0].head, ['experiment', 'claim', 'fresh', 'steady']);
  assert.deepEqual(model.tables[0].rows, [
    ['gap', 'a', 'holds', 'does not hold'],
    ['locks', 'b', '-', 'holds'],
  ]);
  assert.match(model.notes[0], /^fresh decides: each worker's first 2,000 ops/);
  assert.match(model.notes[1], /^-: a claim read once warm only/);
  // a warm-only experiment first (`reproduce locks gap` runs them in the list's order, but a
  // report may hold any) leaves the deciding column first
  const reordered = summaryModel([...sections].reverse());
  assert.deepEqual(reordered.tables[0].head, ['experiment', 'claim', 'fresh', 'steady']);
  assert.match(reordered.notes[0], /^fresh decides/);
});

test("a fresh-protocol run's page draws each setting's first 2,000 ops above its ratio once warm", async () => {
  // reproduce gap, k=2 on 2 CPUs, 12 rounds: the default protocol
  const one = { ...loadSaved(fixture('saved/reproduce-fresh.jsonl')), path: 'reproduce-fresh.jsonl' };
  const page = join(mkdtempSync(join(tmpdir(), 'mmapbench-fresh-')), 'page.html');
  await writeHtmlReport([one], page);
  const html = readFileSync(page, 'utf8');
  const first = html.indexOf('gap · default · k=2 · first 2k ops');
  const warm = html.indexOf('gap · default · k=2 · warm');
  assert.ok(first > 0 && warm > first, 'both rows, fresh first');
  // a run read warm only draws each setting once, by its name alone
  const steady = { ...loadSaved(fixture('saved/reproduce.jsonl')), path: 'reproduce.jsonl' };
  await writeHtmlReport([steady], page);
  assert.ok(!readFileSync(page, 'utf8').includes('first 2k ops'));
});
