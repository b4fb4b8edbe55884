// The gate's decision (the interval against the threshold, never the point estimate), and the
// gate of saved runs whose intervals are known, as the document carries it and as the job's last
// line and GitHub's step summary say it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindOf, loadSaved } from '../../src/commands/index.js';
import { sameKind } from '../../src/commands/diff/files.js';
import { gateOf } from '../../src/core/controller.js';
import { changeGate, judge, worstOutcome } from '../../src/document/gate.js';
import { gateLine, stepSummary } from '../../src/cli/finish.js';
import { fixture } from '../helpers.js';

// workers/procs 0.91 (95% CI 0.47-1.77) over 4 rounds in 3.07 s
const compare = loadSaved(fixture('saved/compare.json')).document;
// p1 0.94 (0.91-0.98), p2 1.22 (0.59-2.52), 3 rounds each
const sweep = loadSaved(fixture('saved/sweep.json')).document;
/** A copy of a compare's document whose one point has these fields instead. */
const withPoint = (/** @type {any} */ document, /** @type {object} */ fields) => ({
  ...document,
  points: [{ ...document.points[0], ...fields }],
});
const gate = (document, threshold, { failInconclusive = false, fixedRounds = false } = {}) =>
  /** @type {import('../../src/document/gate.js').Gate} */ (
    gateOf(document, { threshold, failInconclusive }, { fixedRounds, kind: kindOf(document) })
  );

test('compare: pass, fail and inconclusive against thresholds below, above and inside the interval', () => {
  const pass = gate(compare, 0.4);
  assert.equal(pass.outcome, 'pass');
  assert.equal(
    gateLine(pass),
    'gate passed (workers/procs, --fail-below 0.4): 0.91 (95% CI 0.47-1.77) is at or above 0.4',
  );
  const fail = gate(compare, 2);
  assert.equal(fail.outcome, 'fail');
  assert.equal(gateLine(fail), 'gate failed (workers/procs, --fail-below 2): 0.91 (95% CI 0.47-1.77) is below 2');
  const inconclusive = gate(compare, 0.8);
  assert.equal(inconclusive.outcome, 'inconclusive');
  assert.match(
    gateLine(inconclusive),
    /^gate inconclusive \(workers\/procs, --fail-below 0\.8\): 0\.91 \(95% CI 0\.47-1\.77\) straddles 0\.8; about \d+ (s|min) more would decide it \(--max-time \d+\); not failing the job \(--fail-inconclusive would\)$/,
  );
  assert.ok(inconclusive.points[0].moreSeconds > 0);
});

test('the document keeps the gate as figures; its line is drawn from them, and a file saved with one keeps it', () => {
  const inconclusive = gate(compare, 0.8, { fixedRounds: true });
  assert.equal('line' in inconclusive, false);
  assert.equal(inconclusive.fixedRounds, true);
  assert.match(gateLine(inconclusive), /\(--rounds \d+\)/);
  assert.equal(gateLine({ ...inconclusive, line: 'gate inconclusive (as saved)' }), 'gate inconclusive (as saved)');
});

test('compare: a threshold exactly on the low bound passes; exactly on the high bound is inconclusive', () => {
  const [low, high] = compare.points[0].ratio.ci95;
  assert.equal(gate(compare, low).outcome, 'pass');
  assert.equal(gate(compare, high).outcome, 'inconclusive');
});

test('an adaptive run is told the --max-time that would decide it, a fixed-rounds run the --rounds', () => {
  const adaptive = { ...compare, config: { ...compare.config, rounds: null } };
  assert.match(gateLine(gate(adaptive, 0.8)), /\(--max-time \d+\)/);
  assert.match(gateLine(gate(compare, 0.8, { fixedRounds: true })), /\(--rounds \d+\)/);
});

test('with --fail-inconclusive the line says the job fails', () => {
  assert.match(gateLine(gate(compare, 0.8, { failInconclusive: true })), /; failing the job \(--fail-inconclusive\)$/);
});

test('an A/A run gates A/B', () => {
  const aa = loadSaved(fixture('saved/compare-aa.json')).document;
  assert.match(gateLine(gate(aa, 0.1)), /^gate passed \(A\/B, --fail-below 0\.1\)/);
});

test('a run that failed or was interrupted has no gate: its error is its outcome', () => {
  assert.equal(
    gateOf(
      { ...compare, status: 'interrupted' },
      { threshold: 0.4, failInconclusive: false },
      { fixedRounds: false, kind: kindOf(compare) },
    ),
    null,
  );
  assert.equal(gateOf(compare, null, { fixedRounds: false, kind: kindOf(compare) }), null);
});

test('sweep: each point judged, the worst outcome decides, and the line names the points that decided it', () => {
  const mixed = gate(sweep, 0.9);
  assert.deepEqual(
    mixed.points.map((point) => [point.id, point.outcome]),
    [
      ['p1', 'pass'],
      ['p2', 'inconclusive'],
    ],
  );
  assert.equal(mixed.outcome, 'inconclusive');
  assert.match(
    gateLine(mixed),
    /^gate inconclusive \(workers\/procs, --fail-below 0\.9\): 2 points, 1 passed, 1 inconclusive; .*k=2: 1\.22 \(95% CI 0\.59-2\.52\) straddles 0\.9; about/,
  );
  const failing = gate(sweep, 1);
  assert.equal(failing.outcome, 'fail');
  assert.match(gateLine(failing), /1 failed, 1 inconclusive; .*k=1: 0\.94 \(95% CI 0\.91-0\.98\) is below 1$/);
  assert.equal(gate(sweep, 0.5).outcome, 'pass');
});

test('diff: the change of the ratio and of each mode against the allowed worsening, and runs that differ are named', () => {
  const points = [
    {
      label: 'readfilesync · 64 KiB · k=2',
      ratioChange: { change: 0.8, ci95: /** @type {[number, number]} */ ([0.7, 0.88]) },
      throughputChange: {
        workers: { change: 0.97, ci95: /** @type {[number, number]} */ ([0.92, 1.02]) },
        procs: { change: 1.2, ci95: /** @type {[number, number]} */ ([1.1, 1.3]) },
      },
    },
  ];
  const ratioOnly = changeGate(points, { maxWorsening: 0.1, failInconclusive: false, differences: [] });
  assert.equal(ratioOnly.outcome, 'fail');
  assert.equal(
    gateLine(ratioOnly),
    'gate failed (new/base, --max-worsening 10%): readfilesync · 64 KiB · k=2: workers/procs 0.80 (95% CI 0.70-0.88) is below 0.9',
  );
  const modes = changeGate(points, { maxSlowdown: 0.05, failInconclusive: false, differences: ['Node', 'kernel'] });
  assert.deepEqual(
    modes.points.map((point) => point.outcome),
    ['inconclusive', 'pass'],
  );
  assert.match(
    gateLine(modes),
    /^gate inconclusive \(new\/base, --max-slowdown 5%\): 2 changes, 1 passed, 1 inconclusive; .*workers ops\/s: 0\.97 \(95% CI 0\.92-1\.02\) straddles 0\.95 \(the runs differ in Node, kernel: the change may be theirs, not the code's\); not failing the job \(--fail-inconclusive would\)$/,
  );
  const wide = changeGate(points, { maxWorsening: 0.3, failInconclusive: false, differences: [] });
  assert.equal(wide.outcome, 'pass');
});

test('the step summary: the command and verdict, the gate with its mark, and the tables folded', () => {
  const summary = stepSummary({
    title: 'mmapbench compare readfilesync, k=2',
    verdict: compare.points[0].verdict.text,
    gate: gate(compare, 2),
    tables: '| mode | ops/s |\n|---|---|\n| workers | 59,352 |\n',
  });
  assert.equal(
    summary,
    [
      `**mmapbench compare readfilesync, k=2**: ${compare.points[0].verdict.text}`,
      '',
      '❌ **gate failed (workers/procs, --fail-below 2): 0.91 (95% CI 0.47-1.77) is below 2**',
      '',
      "<details><summary>the run's tables</summary>",
      '',
      '| mode | ops/s |',
      '|---|---|',
      '| workers | 59,352 |',
      '',
      '</details>',
      '',
      '',
    ].join('\n'),
  );
  assert.doesNotMatch(stepSummary({ title: 't', verdict: null, gate: null, tables: 'x' }), /gate/);
});

test('a diff gate refuses two runs of different tasks: it would judge the change of task', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-gate-'));
  const other = join(dir, 'reuse.json');
  const document = {
    ...compare,
    config: { ...compare.config, task: { ...compare.config.task, name: 'reuse-buffer' } },
  };
  writeFileSync(other, JSON.stringify(document));
  assert.throws(() => sameKind(loadSaved(fixture('saved/compare.json')), loadSaved(other)), {
    kind: 'usage',
    message:
      /^a diff gate needs two runs of one task: .*compare\.json ran readfilesync, .*reuse\.json ran reuse-buffer; gate two runs of the same task$/,
  });
});

test('an estimate within noise of the threshold is not told to run for days', () => {
  const close = withPoint(compare, { ratio: { ...compare.points[0].ratio, geomean: 1.0001, ci95: [0.9, 1.1] } });
  assert.match(
    gateLine(gate(close, 1)),
    /straddles 1, so close to it that no practical run decides it \(about \d+ h more\); choose a threshold further from the ratio;/,
  );
});

test('a sweep gate names at most three deciding points and counts the rest', () => {
  const many = {
    ...sweep,
    points: Array.from({ length: 5 }, (_, i) => ({ ...sweep.points[0], id: `p${i + 1}` })),
  };
  const line = gateLine(
    /** @type {import('../../src/document/gate.js').Gate} */ (
      gateOf(many, { threshold: 1, failInconclusive: false }, { fixedRounds: true, kind: kindOf(many) })
    ),
  );
  assert.match(line, /5 points, 5 failed; (.*is below 1; ){3}2 more$/);
});

const measured = (ci95, threshold, more = {}) =>
  judge({ estimate: Math.sqrt(ci95[0] * ci95[1]), ci95, threshold, ...more });

test('pass when the whole interval is at or above the threshold, fail when it is all below', () => {
  assert.equal(measured([0.85, 0.95], 0.8).outcome, 'pass');
  assert.equal(measured([0.6, 0.75], 0.8).outcome, 'fail');
  assert.equal(measured([0.7, 0.9], 0.8).outcome, 'inconclusive');
});

test('a bound exactly on the threshold: a low bound there passes, a high bound there is not below', () => {
  assert.equal(measured([0.8, 0.9], 0.8).outcome, 'pass');
  assert.equal(measured([0.7, 0.8], 0.8).outcome, 'inconclusive');
});

test('the point estimate alone decides nothing: an estimate below the threshold with a straddling interval is inconclusive', () => {
  const result = judge({ estimate: 0.78, ci95: [0.6, 1.01], threshold: 0.8 });
  assert.equal(result.outcome, 'inconclusive');
});

test('no interval (one round) is inconclusive, with no estimate of the time it needs', () => {
  const result = judge({ estimate: 0.5, ci95: null, threshold: 0.8, rounds: 1, seconds: 3 });
  assert.equal(result.outcome, 'inconclusive');
  assert.equal(result.moreSeconds, null);
});

test('an inconclusive run says how much longer would decide it: the interval narrows as 1/sqrt(rounds)', () => {
  // log half-width 0.2 around exp(0.1) above 1: (0.2 / 0.1)^2 = 4 times the rounds, so 3 x 10 more
  const ci95 = /** @type {[number, number]} */ ([Math.exp(-0.1), Math.exp(0.3)]);
  const result = judge({ estimate: Math.exp(0.1), ci95, threshold: 1, rounds: 10, seconds: 20 });
  assert.equal(result.outcome, 'inconclusive');
  assert.ok(Math.abs(/** @type {number} */ (result.moreSeconds) - 60) < 1e-6, String(result.moreSeconds));
});

test('an estimate exactly on the threshold is never decided by running longer', () => {
  const result = judge({ estimate: 1, ci95: [0.9, 1.1], threshold: 1, rounds: 10, seconds: 20 });
  assert.deepEqual([result.outcome, result.onThreshold, result.moreSeconds], ['inconclusive', true, null]);
});

test('over several points, any fail fails the gate, else any inconclusive', () => {
  assert.equal(worstOutcome(['pass', 'inconclusive', 'fail']), 'fail');
  assert.equal(worstOutcome(['pass', 'inconclusive']), 'inconclusive');
  assert.equal(worstOutcome(['pass', 'pass']), 'pass');
});

test("a run that stopped on its verdict is gated by the verdict's interval, named with its own confidence", () => {
  const decided = {
    ...withPoint(compare, {
      verdict: { outcome: 'procs', interval: [0.85, 0.97], look: 'sequence', confidence: 0.995, margin: 0.1 },
    }),
    config: { ...compare.config, rounds: null },
  };
  const judged = gate(decided, 1);
  assert.equal(
    judged.outcome,
    'fail',
    'the verdict interval lies wholly below 1; the fixed-n one (0.47-1.77) does not',
  );
  assert.deepEqual(judged.points[0].ci95, [0.85, 0.97]);
  assert.equal(judged.points[0].confidence, 0.995);
  assert.match(
    gateLine(judged),
    /^gate failed \(workers\/procs, --fail-below 1\): 0\.91 \(99\.5% CI 0\.85-0\.97, valid at every round\) is below 1$/,
  );
  const atBudget = gate(
    withPoint(decided, { verdict: { ...decided.points[0].verdict, look: 'final', confidence: 0.955 } }),
    1,
  );
  assert.match(gateLine(atBudget), /\(95\.5% CI 0\.85-0\.97\) is below/);
  assert.match(gateLine(gate(compare, 0.8)), /\(95% CI /, 'a file saved before verdicts: its 95% interval');
});
