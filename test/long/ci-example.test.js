// examples/ci/github-workflow.yml works as shipped: its mmapbench steps, run in order on the quick
// settings against the example task, gate, save, export both formats in their documented
// shapes, and diff against "main" (here, an earlier run of the same steps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parse } from 'yaml';
import { assertActionBenchmark, assertBencher, BIN } from '../helpers.js';

const WORKFLOW = fileURLToPath(new URL('../../examples/ci/github-workflow.yml', import.meta.url));
const TASK = fileURLToPath(new URL('../../examples/my-task.mjs', import.meta.url));

// `npx mmapbench` is this checkout's CLI; compare and sweep get --quick
const PREAMBLE = `
npx() {
  if [ "$1" != mmapbench ]; then echo "unexpected npx $1" >&2; return 127; fi
  shift; local command=$1; shift
  case $command in
    compare|sweep) node ${JSON.stringify(BIN)} "$command" "$@" --quick ;;
    *) node ${JSON.stringify(BIN)} "$command" "$@" ;;
  esac
}
`;

test("the CI example's mmapbench steps run as shipped and their exports have the documented shapes", async () => {
  const workflow = parse(readFileSync(WORKFLOW, 'utf8'));
  const [job] = Object.values(workflow.jobs);
  const steps = job.steps.filter((step) => typeof step.run === 'string' && step.run.includes('npx mmapbench'));
  assert.deepEqual(
    steps.map((step) => step.name),
    ['gate on the workers/procs ratio', 'gate on the change since main'],
  );
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-ci-example-'));
  const run = (/** @type {{ run: string }} */ step) =>
    execa('bash', ['-eo', 'pipefail', '-c', `${PREAMBLE}\n${step.run}`], {
      cwd: dir,
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...job.env, TASK },
    });
  const [gate, change] = steps;

  // Which way a gate goes is a measurement (--quick's cells are microseconds): the steps are
  // judged by what they run, save and export, and by a gate's line coming last, whichever it says
  const gated = (/** @type {{ exitCode?: number, stderr: string }} */ result) =>
    assert.ok(result.exitCode === 0 || result.exitCode === 4, `exit ${result.exitCode}: ${result.stderr}`);

  // main's run, kept where the download step puts it
  const main = await run(gate);
  gated(main);
  mkdirSync(join(dir, 'baseline'));
  cpSync(join(dir, 'mmapbench-results'), join(dir, 'baseline', 'mmapbench-results'), { recursive: true });

  // the pull request's
  const pr = await run(gate);
  gated(pr);
  assert.match(pr.stderr, /^mmapbench: round 2: workers\/procs /m);
  assert.match(
    pr.stderr.trimEnd().split('\n').at(-1),
    /^mmapbench: gate (passed|inconclusive|failed) \(workers\/procs, --fail-below 0\.8\)/,
  );
  const saved = JSON.parse(readFileSync(join(dir, 'mmapbench-results', 'compare-ci.json'), 'utf8'));
  assert.equal(saved.config.task.name, 'concat-chunks');
  const gab = JSON.parse(readFileSync(join(dir, 'mmapbench-gab.json'), 'utf8'));
  assertActionBenchmark(gab);
  assert.equal(gab.length, 3);
  assertBencher(JSON.parse(readFileSync(join(dir, 'mmapbench-bmf.json'), 'utf8')));

  const diff = await run(change);
  gated(diff);
  assert.match(
    diff.stderr.trimEnd(),
    /^mmapbench: gate (passed|inconclusive|failed) \(new\/base, --max-worsening 10%\): concat-chunks/,
  );
});
