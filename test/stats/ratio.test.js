import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioStats } from '../../src/stats/ratio.js';
import { verdictOf } from '../../src/stats/sequential.js';
import { nextStep, verdictText } from '../../src/commands/compare/words.js';

// the decision (stats/) and its sentence (words), as the document carries them: an interval
// fixed in advance, as --rounds gives
const decide = (stats) => verdictOf(stats.samples, { look: 'fixed', margin: 0.1 });
const verdict = (stats) => ({ ...decide(stats), text: verdictText(stats, decide(stats)) });

test('identical ratios give a zero-width interval at that ratio', () => {
  const stats = ratioStats([0.6, 0.6, 0.6, 0.6]);
  assert.equal(stats.n, 4);
  assert.ok(Math.abs(stats.median - 0.6) < 1e-12);
  assert.ok(Math.abs(stats.ci95[0] - 0.6) < 1e-12 && Math.abs(stats.ci95[1] - 0.6) < 1e-12);
});

test('the interval is a t interval on log ratios', () => {
  // log ratios -0.1, 0, 0.1: mean 0, sd 0.1, t(0.975, 2) = 4.302653
  const stats = ratioStats([Math.exp(-0.1), 1, Math.exp(0.1)]);
  const half = (4.302653 * 0.1) / Math.sqrt(3);
  assert.ok(Math.abs(stats.ci95[0] - Math.exp(-half)) < 1e-5);
  assert.ok(Math.abs(stats.ci95[1] - Math.exp(half)) < 1e-5);
  assert.ok(Math.abs(stats.geomean - 1) < 1e-12);
});

test('one round has no interval and says how to get one', () => {
  const stats = ratioStats([0.7]);
  assert.equal(stats.ci95, null);
  const result = verdict(stats);
  assert.equal(result.significant, false);
  assert.match(result.text, /too few for a meaningful interval \(3 or more\)/);
});

test('procs faster when the whole interval is below 1, reported as procs/workers', () => {
  const result = verdict(ratioStats([0.5, 0.5, 0.5, 0.5, 0.5]));
  assert.deepEqual([result.outcome, result.significant, result.faster], ['procs', true, 'procs']);
  assert.equal(result.text, 'procs are 2.00x faster than workers (95% CI 2.00-2.00)');
});

test('workers faster when the whole interval is above 1', () => {
  const result = verdict(ratioStats([1.2, 1.2, 1.2, 1.2, 1.2]));
  assert.deepEqual([result.outcome, result.significant, result.faster], ['workers', true, 'workers']);
  assert.equal(result.text, 'workers are 1.20x faster than procs (95% CI 1.20-1.20)');
});

test('an interval within the margin is equal, and says so with the margin', () => {
  const result = verdict(ratioStats([0.99, 1.01, 1.0, 0.995, 1.005]));
  assert.deepEqual([result.outcome, result.significant, result.faster], ['equal', false, null]);
  assert.match(
    result.text,
    /^workers and procs are equal within ±10% here: workers\/procs ratio 1\.00 \(95% CI 0\.99-1\.01\)$/,
  );
});

test('a file saved before verdicts had outcomes reads as it did: no significant difference', () => {
  const stats = ratioStats([0.7, 1.3, 0.9, 1.1]);
  const text = verdictText(stats, { significant: false, faster: null, side: 'spans' });
  assert.match(text, /^no significant difference: workers\/procs ratio 0.97 \(95% CI 0.64-1.49 spans 1\)/);
});

test('an interval spanning 1 and wider than the margin is inconclusive: what it ruled out, and what would tighten it', () => {
  const result = verdict(ratioStats([0.7, 1.3, 0.9, 1.1]));
  assert.deepEqual([result.outcome, result.significant, result.faster], ['inconclusive', false, null]);
  // the estimate beside the interval is its centre, the geometric mean 0.97, not the median 1.00
  assert.match(
    result.text,
    /^inconclusive: procs not more than 1\.57x faster, workers not more than 1\.49x faster \(workers\/procs 0\.97, 95% CI 0\.64-1\.49\)/,
  );
  const stats = ratioStats([0.7, 1.3, 0.9, 1.1]);
  const quick = verdictText(stats, decide(stats), { config: { quick: true } });
  assert.match(quick, /--quick measures nothing: run without it$/);
  const fixed = { config: { quick: false, iterations: 5 }, calibration: null, stop: 'rounds' };
  assert.match(
    verdictText(stats, decide(stats), fixed),
    /more --rounds would tighten it$/,
    'no --duration advice with --iterations',
  );
});

test('wide noise widens the interval', () => {
  const tight = ratioStats([0.6, 0.62, 0.58, 0.61, 0.59]);
  const noisy = ratioStats([0.4, 0.9, 0.5, 0.8, 0.45]);
  assert.ok(noisy.ci95[1] - noisy.ci95[0] > tight.ci95[1] - tight.ci95[0]);
});

test("the next step puts Node's own fix first for a readFileSync task: the task on a Node with it, the upgrade on one without", () => {
  const procsFaster = { verdict: { significant: true, faster: 'procs' }, ratio: {}, aa: null };
  const on = (version, task = 'readfilesync') => ({
    ...procsFaster,
    config: { task: { name: task } },
    environment: { node: { version } },
  });
  assert.match(
    nextStep(on('v24.21.0')),
    /Node's own fix first: `--task readfilesync-into` \(readFileSync into one buffer, which this Node can\); or --task reuse-buffer/,
  );
  assert.match(
    nextStep(on('v20.20.2')),
    /Node's own fix, readFileSync into one buffer, needs Node 24\.19\.0 or 26\.4\.0 and up: `--task readfilesync-into --node 26`/,
  );
  assert.doesNotMatch(nextStep(on('v24.21.0', 'zlib')), /readfilesync-into/);
  assert.doesNotMatch(nextStep(on('v24.21.0', 'readfilesync-into')), /readfilesync-into/);
});

test('the next step after procs came out faster names the mitigations other than the task measured', () => {
  const procsFaster = (task) => ({
    verdict: { significant: true, faster: 'procs' },
    ratio: {},
    aa: null,
    config: { task: { name: task } },
    environment: { node: { version: 'v20.20.2' } },
  });
  assert.match(
    nextStep(procsFaster('zlib')),
    /measure the mitigations with --task reuse-buffer, --task pool-size or --env MALLOC_ARENA_MAX=1$/,
  );
  assert.match(
    nextStep(procsFaster('reuse-buffer')),
    /measure the mitigations with --task pool-size or --env MALLOC_ARENA_MAX=1$/,
  );
  assert.match(
    nextStep(procsFaster('pool-size')),
    /readfilesync-into --node 26`; or --task reuse-buffer, --env MALLOC_ARENA_MAX=1$/,
  );
  assert.match(
    nextStep(procsFaster('readfilesync')),
    /; or --task reuse-buffer, --task pool-size, --env MALLOC_ARENA_MAX=1$/,
  );
});
