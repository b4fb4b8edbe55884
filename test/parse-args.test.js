// The command line parsed in-process (no process spawned per case), as c8 tests its parser: every
// usage error is one line naming the problem and the fix, of kind usage (exit 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { run } from '../src/cli/index.js';
import { fixture } from './helpers.js';

/** A stdout that keeps what is written, as the CLI's context. */
function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk, encoding, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
}

const usage = [
  [['compare', '-k', '0'], /^-k 0 is invalid: it must be a whole number of 1 or more$/],
  [['compare', '-k', '1.5'], /^-k 1.5 is invalid/],
  [['compare', '--iterations', 'abc'], /^--iterations abc is invalid/],
  [['compare', '--duration', '-2'], /^--duration -2 is invalid: it must be a number greater than 0$/],
  [['compare', '--rounds', '0'], /^--rounds 0 is invalid/],
  [['compare', '--main', 'maybe'], /^--main maybe is invalid: it must be one of on, off$/],
  [['compare', '--request-every', '0'], /^--request-every 0 is invalid: it must be a number of ms from 1 to 1000$/],
  // Node's timers clamp below 1 ms, and a window of seconds holds no request every 3e9 ms
  [
    ['compare', '--request-every', '0.001'],
    /^--request-every 0.001 is invalid: it must be a number of ms from 1 to 1000$/,
  ],
  [['compare', '--request-every', '3e9'], /^--request-every 3e9 is invalid: it must be a number of ms from 1 to 1000$/],
  [['sweep', '--request-size', '1.5'], /^--request-size 1.5 is invalid: it must be a whole number of bytes/],
  [
    ['compare', '--request-size', '5g'],
    /^--request-size 5g is invalid: it must be a size from 1 byte to 64m, what one request may allocate$/,
  ],
  [['sweep', '--request-size', '65m'], /^--request-size 65m is invalid: it must be a size from 1 byte to 64m/],
  [
    ['advise', '--for', 'main-latency', '--main', 'off'],
    /^--for main-latency ranks the fixes by the app's request p99, which --main off does not measure; drop --main off, or rank by another cost$/,
  ],
  // yargs reads a switch given a word as off
  [
    ['advise', '--k-auto=maybe'],
    /^--k-auto=maybe is invalid: --k-auto is a switch, on or off; write --k-auto or --no-k-auto$/,
  ],
  [['compare', '--quick=yes'], /^--quick=yes is invalid: --quick is a switch, on or off; write --quick or --no-quick$/],
  [['report', 'x.json', '--verbose=1'], /^--verbose=1 is invalid: --verbose is a switch/],
  [
    ['compare', '--iterations', '5', '--duration', '1'],
    /^--iterations cannot be used with --duration; see `mmapbench compare --help`$/,
  ],
  [['compare', '--json', '--markdown'], /^--json cannot be used with --markdown; see `mmapbench compare --help`$/],
  [['compare', '--task', 'nope'], /^unknown task "nope"/],
  [['compare', '--task', fixture('no-run.js')], /has no op\(ctx\) nor run\(ctx, iterations\) function/],
  [['compare', '--task', fixture('broken.js')], /failed to load/],
  [
    ['compare', '--task', fixture('bad-metric.js')],
    /^task module .*bad-metric.js: metrics.reads.combine must be one of sum, max, mean \(it is "median"\)/,
  ],
  [['compare', '--env', 'NOEQUALS'], /^--env NOEQUALS is not KEY=VALUE; write it as --env MALLOC_ARENA_MAX=1$/],
  [['compare', '--env', '=x'], /^--env =x is not KEY=VALUE/],
  [
    ['compare', '--env', 'LD_PRELOAD=/nonexistent.so'],
    /^--env LD_PRELOAD=\/nonexistent.so: LD_PRELOAD=\/nonexistent.so did not load into .*node; pass the path of a shared library/,
  ],
  [['compare', '--file', '/no/such/file'], /^--file \/no\/such\/file does not exist/],
  [
    ['compare', '--file', '100g'],
    /^--file 100g: mmapbench creates files of at most 1 GiB; make a bigger one yourself and pass its path$/,
  ],
  [['compare', '--node', '/no/such/node'], /^--node \/no\/such\/node is not an executable file \(ENOENT\)/],
  [['compare', '--node', '/tmp'], /^--node \/tmp is not an executable file \(EISDIR\)/],
  [['compare', '--node', '/bin/true'], /^--node \/bin\/true printed "" instead of a Node.js version/],
  [['compare', '--concurrency', '4'], /^task readfilesync has no parameter concurrency/],
  [['compare', '--param', 'constructor=1'], /^task readfilesync has no parameter constructor/],
  [['compare', '--param', '__proto__=1'], /^task readfilesync has no parameter __proto__/],
  [
    ['compare', '--task', 'fs-promises', '--param', 'op=chmod'],
    /^--param op=chmod is not one of readFile, writeFile, stat \(task fs-promises\)$/,
  ],
  [
    ['compare', '--timeout', '3000000'],
    /^--timeout 3000000 is invalid: it must be a number of seconds greater than 0 and at most 2147483$/,
  ],
  [['compare', '--timeout', '1e9'], /^--timeout 1e9 is invalid/],
  [
    ['procs', '-k', '4000'],
    /^-k 4000 is more than \d+ \(4 × the \d+ CPUs here, or 256, whichever is larger\); pass --force to run it anyway$/,
  ],
  // refused before the task is loaded or a Node installed: the one check of k, in the plan
  [
    ['procs', '-k', '4000', '--task', './no-such-task.js', '--node', '99'],
    /^-k 4000 is more than \d+ \(4 × the \d+ CPUs here, or 256, whichever is larger\); pass --force to run it anyway$/,
  ],
  [
    ['procs', '-k', '100000', '--force'],
    /^-k 100000 is more than 4096, the most threads or processes one cell may start, even with --force; lower -k$/,
  ],
  [['compare', '--trace-window', 'x'], /^--trace-window x is invalid: it must be one of timed, cell$/],
  [
    ['trace', 'threads'],
    /^trace threads: the modes are workers, procs, compare; to audit a command, put -- before it: `mmapbench trace -- threads …`$/,
  ],
  [['trace', 'workers', 'procs'], /^one mode at a time: workers procs; or put -- before a command to audit it$/],
  [['trace', '--pid', '0'], /^--pid 0 is invalid: it must be a whole number of 1 or more$/],
  [['trace', '--pid', 'x'], /^--pid x is invalid/],
  [['trace', '--pid', '999999999'], /^--pid 999999999: no such process; pass the pid of a running process/],
  [['trace', '--pid', String(process.pid)], /is this mmapbench; pass another process$/],
  [['trace', '--pid', '1', '--seconds', '0'], /^--seconds 0 is invalid/],
  [['trace', '--seconds', '5'], /^--seconds is for --pid or -- COMMAND/],
  [['trace', 'compare', '--stacks'], /^--stacks is for --pid or -- COMMAND/],
  [['trace', '--'], /^nothing after --: give the command to run under the trace/],
  [['trace', '--pid', '1', '--', 'node'], /^give --pid or a command after --, not both$/],
  [['trace', 'workers', '--pid', '1'], /^an audit traces its target, not mmapbench's cells: drop workers$/],
  [['trace', '-k', '2', '--pid', '1'], /^-k is for tracing mmapbench's own cells, not an audit; drop it$/],
  [
    ['trace', '--', 'no-such-command-here', 'x'],
    /^no-such-command-here: no such command on PATH; give the program's path/,
  ],
  [
    ['reproduce', '--quick', '--rounds', '3'],
    /^--quick cannot be used with --rounds; see `mmapbench reproduce --help`$/,
  ],
  [['reproduce', '--list', '--resume', 'x'], /^--list cannot be used with --resume/],
  [['init-task', 'no/slash'], /^task name no\/slash must be letters, digits and dashes/],
  [
    ['init-task', 'a'.repeat(300)],
    /^task name a{20}… is 300 characters long; give one of at most 64, such as parse-body$/,
  ],
  [['frobnicate'], /^unknown command 'frobnicate'; see `mmapbench --help`$/],
  [['compare', '--bogus'], /^unknown option '--bogus'; see `mmapbench compare --help`$/],
  [
    ['compare', '--rounts', '3'],
    /^unknown option '--rounts' \(Did you mean --rounds\?\); see `mmapbench compare --help`$/,
  ],
  [['compare', 'extra'], /^too many arguments for 'compare'/],
  [
    ['compare', '--precision', '0'],
    /^--precision 0 is invalid: it must be a percentage between 0 and 100, such as 5%$/,
  ],
  [['compare', '--precision', '100%'], /^--precision 100% is invalid/],
  [['compare', '--margin', '0'], /^--margin 0 is invalid: it must be a percentage between 0 and 100, such as 5%$/],
  [['procs', '--margin', '5%'], /^--margin is for compare/],
  [['compare', '--precision', 'tight'], /^--precision tight is invalid/],
  [['compare', '--max-time', '0'], /^--max-time 0 is invalid: it must be a number greater than 0$/],
  [['compare', '--max-time', 'soon'], /^--max-time soon is invalid/],
  [['compare', '--aa', 'threads'], /^--aa threads is invalid: it must be one of workers, procs$/],
  [['workers', '--aa', 'procs'], /^--aa is for compare, which runs both arms; drop it or run `mmapbench compare`$/],
  [['procs', '--precision', '5%'], /^--precision is for compare/],
  // every option compare's table has and workers' has not is compare's, read from the two tables
  [['workers', '--isolate'], /^--isolate is for compare, which runs both arms/],
  [['procs', '--batch', '100'], /^--batch is for compare, which runs both arms/],
  [
    ['compare', '--rounds', '3', '--precision', '5%'],
    /^--precision cannot be used with --rounds; see `mmapbench compare --help`$/,
  ],
  [['sweep', '-k', '1,,2'], /^-k 1,,2 has an empty item; write a comma-separated list such as -k 1,2,4,8$/],
  [['sweep', '--file', ','], /^--file , has an empty item/],
  [['sweep', '-k', '1,2,1'], /^-k lists 1 twice; give each value once$/],
  [['sweep', '-k', '2', '-k', '2'], /^-k lists 2 twice/],
  [['sweep', '--pool-size', '8k,8192'], /^--pool-size lists 8192 twice/],
  [['sweep', '-k', '1,two'], /^-k two is invalid: it must be a whole number of 1 or more$/],
  [['sweep', '-k', '1.5'], /^-k 1.5 is invalid/],
  [['sweep', '--variant', ':A=1'], /^--variant :A=1 has no name .*; write it as --variant arena1:MALLOC_ARENA_MAX=1$/],
  [['sweep', '--variant', 'a:NOEQUALS'], /^--variant a:NOEQUALS: "NOEQUALS" is not KEY=VALUE; write it as --variant/],
  [
    ['sweep', '--variant', 'a'],
    /^--variant a sets nothing; write it as --variant arena1:MALLOC_ARENA_MAX=1, or --variant default$/,
  ],
  [['sweep', '--variant', 'default:A=1'], /^--variant default:A=1: default is the variant that adds nothing/],
  [
    ['sweep', '--variant', 'a:A=1', '--variant', 'a:A=2'],
    /^--variant a is given twice; give each variant its own name$/,
  ],
  [['sweep', '--node', '/no/such/node'], /^--node \/no\/such\/node is not an executable file \(ENOENT\)/],
  [['sweep', '--node', '/bin/true'], /^--node \/bin\/true printed "" instead of a Node.js version/],
  [['sweep', '--node', process.execPath, '--node', process.execPath], /^--node lists .* twice; give each value once$/],
  [
    ['sweep', '--node', process.execPath, '--node', process.execPath.replace(/\/node$/, '/../bin/node')],
    /^--node .* is given twice; give each Node once$/,
  ],
  [
    ['sweep', '-k', '1,2,3,4,5,6,7,8,9', '--file', '1k,2k,3k,4k,5k,6k,7k,8k'],
    /^the sweep has 72 points \(8 × 9\), more than 64; shorten a list, or pass --force to run them all$/,
  ],
  [['sweep', '--pool-size', '8k,1m'], /^task readfilesync has no parameter poolSize/],
  [['sweep', '--trace'], /^unknown option '--trace'; see `mmapbench sweep --help`$/],
  [
    ['sweep', '--rounds', '3', '--precision', '5%'],
    /^--precision cannot be used with --rounds; see `mmapbench sweep --help`$/,
  ],
  [['compare', '--protocol', 'cold'], /^--protocol cold is invalid: it must be one of steady, published$/],
  [['compare', '--protocol', 'published', '--iterations', '5'], /^--protocol cannot be used with --iterations/],
  [['compare', '--protocol', 'published', '--warmup', '5'], /^--protocol cannot be used with --warmup/],
  [['compare', '--warmup', 'warm'], /^--warmup warm is invalid: it must be a whole number of 0 or more, or steady$/],
  [['compare', '--warmup', '-1'], /^--warmup -1 is invalid: it must be a whole number of 0 or more, or steady$/],
  [
    ['reproduce', '--protocol', 'both-ways'],
    /^--protocol both-ways is invalid: it must be one of fresh, steady, published, both$/,
  ],
  [[], /^no command given; run `mmapbench compare`, or see `mmapbench --help` for the list$/],
  [['compare', '--rounds'], /^--rounds needs a value; see `mmapbench compare --help`$/],
  [['compare', '--rounds=0'], /^--rounds 0 is invalid: it must be a whole number of 1 or more$/],
  [['report'], /^missing arguments: it is `mmapbench report <files\.\.>`; see `mmapbench report --help`$/],
  [['diff', 'a.json'], /^missing arguments: it is `mmapbench diff <base> <new>`/],
  [['compare', '--no-save', '--out', 'x'], /^--no-save cannot be used with --out/],
  [['compare', '--fail-below', '0'], /^--fail-below 0 is invalid: it must be a number greater than 0$/],
  [['compare', '--fail-below', 'abc'], /^--fail-below abc is invalid: it must be a number greater than 0$/],
  [['sweep', '--fail-below', '-1'], /^--fail-below -1 is invalid/],
  [['compare', '--fail-inconclusive'], /^--fail-inconclusive needs a gate: add --fail-below RATIO$/],
  [['workers', '--fail-below', '0.8'], /^--fail-below is for compare, which runs both arms/],
  [['procs', '--ci'], /^--ci is for compare, which runs both arms/],
  [
    ['compare', '--export', 'csv=x.csv'],
    /^--export csv=x\.csv: unknown format 'csv'; it must be one of github-action-benchmark, bencher$/,
  ],
  [['compare', '--export', 'bencher'], /^--export bencher is invalid: it must be FORMAT=FILE/],
  [
    ['compare', '--export', 'bencher=/no/such/dir/b.json'],
    /^--export bencher=\/no\/such\/dir\/b\.json: the folder \/no\/such\/dir does not exist/,
  ],
  [['sweep', '--export', 'bencher=/tmp'], /^--export bencher=\/tmp: \/tmp is a folder; name a file in it$/],
  [['report', fixture('saved/compare.json'), '--export', 'x=y'], /^--export x=y: unknown format 'x'/],
  [
    ['diff', fixture('saved/compare.json'), fixture('saved/compare.json'), '--max-worsening', '150'],
    /^--max-worsening 150 is invalid: it must be a percentage between 0 and 100, such as 5%$/,
  ],
  [
    ['diff', fixture('saved/compare.json'), fixture('saved/compare.json'), '--max-slowdown', 'ten'],
    /^--max-slowdown ten is invalid/,
  ],
  [
    ['diff', fixture('saved/compare.json'), fixture('saved/compare.json'), '--fail-inconclusive'],
    /^--fail-inconclusive needs a gate: add --max-worsening PERCENT or --max-slowdown PERCENT$/,
  ],
  [
    ['diff', fixture('saved/compare.json'), fixture('saved/sweep.json'), '--max-worsening', '10'],
    /^a diff gate needs two runs of one command: .*compare\.json is a compare, .*sweep\.json a sweep; gate two sweep runs$/,
  ],
  // a budget beside a fixed count would go unheeded
  [
    ['compare', '--quick', '--rounds', '50', '--max-time', '2'],
    /^--max-time cannot be used with --rounds; see `mmapbench compare --help`$/,
  ],
  [
    ['compare', '--node', fixture('prints-a-version.sh')],
    /^--node \S+prints-a-version\.sh printed a version but did not run mmapbench's harness \(\S+version\.js\) as Node\.js does; pass the path of a node binary$/,
  ],
  [['compare', '--out', ''], /^--out is given an empty value; give it a <dir>, or leave it out for the default$/],
  [['compare', '--node='], /^--node is given an empty value; give it a <version\|path>, or leave it out/],
  [['compare', '--fixtures-dir', ''], /^--fixtures-dir is given an empty value/],
  [['sweep', '--task', ''], /^--task is given an empty value/],
  [
    ['compare', '--max-tim', '5'],
    /^unknown option '--max-tim' \(Did you mean --max-time\?\); see `mmapbench compare --help`$/,
  ],
  [['compare', '-k', '0x2'], /^-k 0x2 is invalid: it must be a whole number of 1 or more$/],
  [['compare', '--duration', 'Infinity'], /^--duration Infinity is invalid/],
  [['compare', '-k', '2', '-k', '3'], /^-k is given 2 times \(2, 3\); give it once; see `mmapbench compare --help`$/],
];
for (const [args, message] of usage) {
  test(`usage error: mmapbench ${args.join(' ')}`, async () => {
    const out = capture();
    await assert.rejects(run(args, { stdout: out.stream, stderr: out.stream }), (error) => {
      assert.equal(error.kind, 'usage', error.message);
      assert.equal(error.exitCode, 2);
      assert.match(error.message, message);
      assert.doesNotMatch(error.message, /\n/, 'one line');
      return true;
    });
    assert.equal(out.text(), '', 'nothing printed before the error');
  });
}

test('--help and --version print and return; every command has examples, and no line is cut mid-command', async () => {
  const top = capture();
  await run(['--help'], { stdout: top.stream });
  assert.match(top.text(), /^Usage: mmapbench <command> \[options\]/);
  for (const name of [
    'compare',
    'sweep',
    'workers',
    'procs',
    'trace',
    'reproduce',
    'tasks',
    'init-task',
    'fixtures',
    'restore',
  ])
    assert.match(top.text(), new RegExp(`\\n  mmapbench ${name} `));
  for (const name of ['compare', 'sweep', 'workers', 'procs', 'trace', 'reproduce']) {
    const out = capture();
    await run([name, '--help'], { stdout: out.stream });
    const examples = out.text().split('\nExamples:\n')[1];
    assert.ok(examples, `${name} --help has examples`);
    for (const line of examples.split('\n').filter((l) => l.startsWith('  $ ')))
      assert.match(line, /^ {2}\$ mmapbench /, `${name}: an example is one whole line`);
  }
  const version = capture();
  await run(['--version'], { stdout: version.stream });
  assert.match(version.text(), /^\d+\.\d+\.\d+\n$/);
});

test("a kept sweep's axes and shared settings pass the checks their options get; a binary it names must be given again", async () => {
  const { keptSweep } = await import('../src/core/typed-options.js');
  const good = {
    axes: {
      node: [null],
      task: [null],
      variant: [{ name: 'default', env: {} }],
      file: [null],
      params: {},
      k: [1, 2],
      cycles: [null],
    },
    shared: { command: 'compare', rounds: 3, env: {}, params: {} },
  };
  const where = { path: 'kept.json', given: {} };
  assert.deepEqual(keptSweep(good, where).axes.k, [1, 2]);
  assert.equal(keptSweep(good, where).axes.node[0], undefined, "JSON's null is the default Node");
  for (const [edit, message] of [
    [
      (r) => (r.axes.k = [1, -2]),
      /^--resume kept\.json: resume\.axes\.k\[1\] is refused as the command line would refuse it: -k -2 is invalid/,
    ],
    [(r) => (r.axes.k = []), /^--resume kept\.json: resume\.axes\.k must be a list of one value or more/],
    [
      (r) => (r.axes.variant = [{ name: 'x', env: { A: 1 } }]),
      /resume\.axes\.variant\[0\]\.env\.A must be a string \(it is 1\)/,
    ],
    [(r) => (r.shared.duration = 0), /resume\.shared\.duration is refused .*--duration 0 is invalid/],
    [(r) => (r.shared.k = [2]), /resume\.shared\.k must be a number \(it is an array of 1 item\)/],
    [(r) => (r.axes.variant = [{ env: {} }]), /resume\.axes\.variant\[0\]\.name is missing/],
    [(r) => (r.axes.node = ['/bin/false']), /runs \/bin\/false \(--node\); .* add --node \/bin\/false$/],
  ]) {
    const request = structuredClone(good);
    edit(request);
    assert.throws(() => keptSweep(request, where), { kind: 'usage', message });
  }
  const named = structuredClone(good);
  named.axes.node = ['/opt/node', '24'];
  assert.deepEqual(keptSweep(named, { path: 'kept.json', given: { node: ['/opt/node'] } }).axes.node, [
    '/opt/node',
    '24',
  ]);
});
