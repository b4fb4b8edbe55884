// action.yml as GitHub runs it: its metadata has what an action needs, and its steps, run in
// bash with the runner's files pointed at temporary ones, gate the run, write the step summary
// and set the outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parse } from 'yaml';
import { ENV, fixture, measured } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));

test("action.yml has the metadata GitHub requires of a composite action, and every output comes from the run's step", () => {
  for (const field of ['name', 'description', 'runs']) assert.ok(action[field], field);
  assert.equal(action.runs.using, 'composite');
  for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description, `input ${name}`);
  for (const [name, output] of Object.entries(action.outputs)) {
    assert.ok(output.description, `output ${name}`);
    assert.equal(output.value, `\${{ steps.run.outputs.${name} }}`);
  }
  for (const step of action.runs.steps) {
    assert.ok(step.run || step.uses, 'a step runs or uses something');
    if (step.run) assert.equal(step.shell, 'bash', 'a composite step names its shell');
  }
  assert.deepEqual(Object.keys(action.outputs).sort(), [
    'high',
    'low',
    'outcome',
    'ratio',
    'results-file',
    'status',
    'verdict',
  ]);
});

/**
 * Runs the action's steps as the runner would: `${{ inputs.X }}` filled in, GITHUB_* set.
 * @param {Record<string, string>} inputs
 */
async function runAction(inputs, dir = mkdtempSync(join(tmpdir(), 'mmapbench-action-'))) {
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const given = (/** @type {string} */ name) => inputs[name] ?? action.inputs[name]?.default ?? '';
  const fill = (/** @type {string} */ text) => text.replace(/\$\{\{ inputs\.([\w-]+) \}\}/g, (_, name) => given(name));
  let last;
  for (const step of action.runs.steps) {
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, fill(String(value))]));
    last = await execa('bash', ['-c', fill(step.run)], {
      cwd: dir,
      reject: false,
      env: { ...ENV, ...files, ...env, GITHUB_ACTION_PATH: ROOT },
    });
    if (last.exitCode !== 0) break;
  }
  const outputs = Object.fromEntries(
    readFileSync(files.GITHUB_OUTPUT, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { dir, result: last, outputs, summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') };
}

test('the steps run a gated compare: outputs set, summary written, exit as the gate says', async () => {
  const passing = await runAction({ args: '--quick --rounds 3 -k 2 --task json', 'fail-below': '0.01' });
  assert.equal(passing.result?.exitCode, 0, passing.result?.stderr);
  assert.match(passing.outputs.ratio, /^\d+\.\d+$/);
  assert.match(passing.outputs.low, /^\d+\.\d+$/);
  assert.ok(Number(passing.outputs.low) <= Number(passing.outputs.ratio));
  assert.ok(Number(passing.outputs.ratio) <= Number(passing.outputs.high));
  assert.match(
    passing.outputs.verdict,
    /^(workers are|procs are|workers and procs are equal|inconclusive|no significant difference)/,
  );
  assert.equal(passing.outputs['results-file'], 'mmapbench-results/compare-ci.json');
  const saved = measured(readFileSync(join(passing.dir, passing.outputs['results-file']), 'utf8'));
  assert.equal(saved.command, 'compare');
  assert.equal(passing.outputs.outcome, saved.verdict.outcome);
  assert.match(passing.outputs.outcome, /^(workers|procs|equal|inconclusive)$/);
  assert.deepEqual(
    [Number(passing.outputs.low), Number(passing.outputs.high)],
    saved.verdict.interval,
    "the verdict's interval",
  );
  assert.match(passing.summary, /gate passed/);
  assert.match(passing.result?.stderr ?? '', /^mmapbench: gate passed/m);

  // a threshold no run reaches: the step fails with the gate's exit code, its outputs still set
  const failing = await runAction({ args: '--quick --rounds 3 -k 2 --task json', 'fail-below': '1000' });
  assert.equal(failing.result?.exitCode, 4, failing.result?.stderr);
  assert.match(failing.outputs.ratio, /^\d+\.\d+$/);
  assert.match(failing.summary, /gate failed/);
});

test('examples/ci/github-action.yml uses the action with the inputs it declares, and reads outputs it sets', () => {
  const workflow = parse(readFileSync(join(ROOT, 'examples/ci/github-action.yml'), 'utf8'));
  const [job] = Object.values(workflow.jobs);
  const step = job.steps.find((one) => /mmapbench@/.test(one.uses ?? ''));
  assert.ok(step, 'a step uses the action');
  for (const input of Object.keys(step.with)) assert.ok(action.inputs[input], `input ${input}`);
  const read = [
    ...readFileSync(join(ROOT, 'examples/ci/github-action.yml'), 'utf8').matchAll(
      /steps\.mmapbench\.outputs\.([\w-]+)/g,
    ),
  ];
  assert.ok(read.length > 0);
  for (const [, output] of read) assert.ok(action.outputs[output], `output ${output}`);
});

test('args split at newlines as at spaces; --out in args is refused, not overridden', async () => {
  // a gate option on the second line of a YAML block: lost before, the run then exited 0
  const lines = await runAction({
    args: '--quick --rounds 3 -k 2 --task json\n--fail-below 1000\n--fail-inconclusive',
  });
  assert.equal(lines.result?.exitCode, 4, lines.result?.stderr);
  assert.match(lines.result?.stderr ?? '', /gate failed/);

  for (const args of ['--quick --out elsewhere', '--quick\n--out=elsewhere']) {
    const out = await runAction({ args });
    assert.equal(out.result?.exitCode, 2, out.result?.stderr);
    assert.match(
      out.result?.stderr ?? '',
      /^mmapbench: args: --out(=elsewhere)? is the action's own input: set `out:` instead/,
    );
  }
  for (const args of ['--quick --fail-below 0.5', '--quick --failBelow 50', '--quick\n--failBelow=50']) {
    const twice = await runAction({ args, 'fail-below': '0.8' });
    assert.equal(twice.result?.exitCode, 2, args);
    assert.match(twice.result?.stderr ?? '', /both set the gate: give it once/);
  }
  // a folder name with a line break would name a results file that is not there
  const broken = await runAction({ args: '--quick', out: 'results\nelsewhere' });
  assert.equal(broken.result?.exitCode, 2);
  assert.match(broken.result?.stderr ?? '', /^mmapbench: out: the folder's name has a line break/);
  assert.deepEqual(broken.outputs, {});
});

test("the outputs are this run's or empty: ratio as the verdict quotes it, no interval below 3 rounds", async () => {
  const two = await runAction({ args: '--quick --rounds 2 -k 2 --task json' });
  assert.equal(two.result?.exitCode, 0, two.result?.stderr);
  const saved = measured(readFileSync(join(two.dir, two.outputs['results-file']), 'utf8'));
  assert.equal(Number(two.outputs.ratio), saved.ratio.median);
  assert.match(two.outputs.verdict, new RegExp(`ratio ${saved.ratio.median.toFixed(2)} from 2 rounds`));
  assert.equal(two.outputs.low, '');
  assert.equal(two.outputs.high, '');

  assert.equal(two.outputs.status, 'complete');

  // a run that failed after a round was kept: its file, and no ratio as if it stood
  const late = await runAction({ args: `--quick --rounds 3 -k 1 --task ${fixture('fails-late.js')}` });
  assert.equal(late.result?.exitCode, 1, late.result?.stderr);
  assert.equal(late.outputs.status, 'failed');
  assert.equal(late.outputs.ratio, '');
  assert.equal(late.outputs.low, '');
  assert.match(late.outputs.verdict, /^the run failed: .*round two/);

  // a failed run in the same workspace: no outputs from the file the earlier run left
  const failed = await runAction({ args: '--quick -k 2 --task ./no-such-task.mjs' }, two.dir);
  assert.equal(failed.result?.exitCode, 2);
  assert.deepEqual(failed.outputs, {});
  assert.match(
    failed.result?.stderr ?? '',
    /^mmapbench: this run saved no results, so the action's outputs are empty$/m,
  );
});
