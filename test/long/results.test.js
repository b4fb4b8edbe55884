// More of what reads results back (test/cli/results.test.js keeps the saved document and
// report): diff of two real runs, the HTML page in a real browser, a save killed at any moment,
// report and diff refusing what is not a results document, and --no-save.
import { test } from 'node:test';
import { SCHEMA } from '../../src/version.js';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { cli, fixture } from '../helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-results-test-'));
const savedFixture = (name) => fixture(`saved/${name}`);
const savedPath = (result) => result.stderr.match(/^mmapbench: saved (\S+)$/m)?.[1];
const lastLine = (text) => text.trimEnd().split('\n').at(-1);

test('diff of two real runs: the shared point with the change of its ratio and each mode, and what differs', async () => {
  const dir = folder();
  const base = savedPath(await cli(['compare', '--quick', '--rounds', '3', '--out', dir]));
  const next = savedPath(
    await cli(['compare', '--quick', '--rounds', '3', '--env', 'MALLOC_ARENA_MAX=2', '--out', dir]),
  );
  const none = await cli(['diff', base, next]);
  assert.equal(none.exitCode, 2, 'an environment variable makes another point');
  assert.match(none.stderr, /no point in common/);

  const again = savedPath(await cli(['compare', '--quick', '--rounds', '3', '--file', '64k', '--out', dir]));
  const result = await cli(['diff', base, again, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const diff = JSON.parse(result.stdout);
  assert.equal(diff.command, 'diff');
  assert.deepEqual(diff.onlyIn, { base: [], new: [] });
  assert.equal(diff.points.length, 1, 'med and 64k are one file size');
  const [point] = diff.points;
  for (const change of [point.ratioChange, point.throughputChange.workers, point.throughputChange.procs]) {
    assert.ok(change.change > 0);
    assert.ok(change.ci95[0] <= change.change && change.change <= change.ci95[1]);
  }
  assert.ok(['gap widened', 'gap narrowed', 'no change', 'no significant change'].includes(point.verdict));
  assert.deepEqual(point.rounds, { base: 3, new: 3 });
  assert.ok(Array.isArray(diff.differences));

  const table = await cli(['diff', base, again]);
  assert.equal(table.exitCode, 0, table.stderr);
  assert.match(table.stdout, /^mmapbench diff: 1 point in common\n/);
  assert.ok(Math.max(...table.stdout.split('\n').map((line) => [...line].length)) <= 80, 'fits 80 columns');
  assert.match(table.stdout, /│ point +│ +ratio( change)? +│/);
  assert.match(table.stdout, /Welch t interval/);
});

test('a save killed at any moment leaves no file or a whole one under its final name', async () => {
  const dir = folder();
  // a child saving a large document over and over (a save takes about 0.1 s here), SIGKILLed
  // after its first whole save at a different moment of a later one each time: slower disks
  // only spread the moments wider
  const script = `
    import { saveResults } from ${JSON.stringify(new URL('../../src/saved/save.js', import.meta.url).href)};
    const document = { command: 'compare', rounds: Array.from({ length: 20000 }, (_, i) => ({ index: i, workers: { throughput: i } })) };
    for (;;) { saveResults(document, ${JSON.stringify(dir)}); process.stdout.write('saved\\n'); }
  `;
  for (let i = 0; i < 12; i++) {
    const child = execa(process.execPath, ['--input-type=module', '-e', script], { reject: false });
    const first = performance.now();
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const save = performance.now() - first;
    await new Promise((resolve) => setTimeout(resolve, (save * i) / 12));
    child.kill('SIGKILL');
    await child;
  }
  const saved = readdirSync(dir).filter((name) => !name.startsWith('.'));
  assert.ok(saved.length > 0, 'some saves finished');
  for (const name of saved) {
    assert.match(name, /^compare-.*\.json$/);
    assert.equal(JSON.parse(readFileSync(join(dir, name), 'utf8')).rounds.length, 20000, name);
  }
});

// The HTML page, opened in Debian's chromium through puppeteer-core. Chromium is installed by
// .ci/run; without it the test skips here, and fails under CI.
const CHROMIUM = '/usr/bin/chromium';
const noChromium = !existsSync(CHROMIUM) && !process.env.CI ? `needs ${CHROMIUM} (apt-get install chromium)` : false;

test(
  'report --html: a self-contained page a browser renders with every chart as SVG, titled and with axes',
  { skip: noChromium },
  async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: .ci/run must apt-get install chromium`);
    const dir = folder();
    // documents real runs saved (`trace compare --quick`, `sweep -k 1,2 --rounds 3`, `reproduce
    // gap arena --quick`, `trace -- node allocates.js 1`): the runs themselves are tested above
    const saved = ['trace-compare.json', 'sweep.json', 'reproduce.jsonl', 'audit.json'].map(savedFixture);
    const page = join(dir, 'report.html');
    const result = await cli(['report', ...saved, '--html', page]);
    assert.equal(result.exitCode, 0, result.stderr);
    const charts = Number(result.stderr.match(/\((\d+) charts, \d+ KiB\)/)[1]);
    // trace compare: rounds, ratio, wait histogram, waits by syscall; sweep: rounds, where the
    // time went, forest, throughput, ratio and the account against k; reproduce: the forest of
    // its settings; the audit: its wait histogram and waits by syscall
    assert.equal(charts, 13);
    const html = readFileSync(page, 'utf8');
    assert.doesNotMatch(html, /<script|<link|src="http|href="http/, 'nothing to run or fetch');

    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const tab = await browser.newPage();
      const problems = [];
      tab.on('console', (message) => ['error', 'warn'].includes(message.type()) && problems.push(message.text()));
      tab.on('pageerror', (error) => problems.push(String(error)));
      tab.on('request', (request) => !request.url().startsWith('file:') && problems.push(`fetched ${request.url()}`));
      await tab.goto(`file://${page}`, { waitUntil: 'load' });
      const drawn = await tab.$$eval('figure > svg', (svgs) =>
        svgs.map((svg) => ({
          title: svg.getAttribute('aria-label'),
          axes: svg.querySelectorAll('.role-axis').length,
          titles: [...svg.querySelectorAll('.role-axis-title text, .role-title-text text')].map((t) => t.textContent),
          marks: svg.querySelectorAll(
            '.mark-symbol path, .mark-rect path, .mark-line path, .mark-rule line, .mark-area path',
          ).length,
          width: svg.getBoundingClientRect().width,
        })),
      );
      assert.equal(drawn.length, charts);
      const titles = drawn.map((chart) => chart.title);
      for (const expected of [
        'Throughput in every round',
        'workers/procs ratio with its 95% CI',
        'mmap_lock write waits per acquisition',
        'Throughput against k',
        'workers/procs against k',
        'Where the time per op went',
        'Page faults and blocked time against k',
        'workers/procs of every setting, with its 95% CI',
        'mmap_lock write waits by system call',
      ])
        assert.ok(titles.includes(expected), `${expected} in ${titles.join(', ')}`);
      assert.equal(titles.filter((title) => title === 'mmap_lock write waits by system call').length, 2);
      for (const chart of drawn) {
        assert.ok(chart.axes >= 2, `${chart.title}: has its x and y axes`);
        assert.ok(chart.titles.includes(chart.title), `${chart.title}: the title is drawn`);
        assert.ok(
          chart.titles.some((text) => /ops\/s|workers\/procs|share|k \(|write wait|per op/.test(text)),
          `${chart.title}: a labelled axis`,
        );
        assert.ok(chart.marks > 0, `${chart.title}: has marks`);
        assert.ok(chart.width > 200, `${chart.title}: laid out`);
      }
      const text = await tab.$eval('body', (body) => body.innerText);
      assert.match(text, /trace compare: readfilesync/);
      assert.match(text, /sweep: 2 points/);
      assert.match(text, /reproduce: 2 experiments/);
      assert.match(text, /trace: pid \d+/);
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
);
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
    [['report', whole, '--html', whole], /--html \S+whole\.json would replace \S+whole\.json, which report reads/],
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

test('a compare printed as markdown is printed again the same by report --markdown', async () => {
  const out = folder();
  const live = await cli(['compare', '--smoke', '--markdown', '--out', out]);
  assert.equal(live.exitCode, 0, live.stderr);
  const again = await cli(['report', savedPath(live), '--markdown']);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.equal(again.stdout, live.stdout);
  assert.match(live.stdout, /^#+ mmapbench compare/m);
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

test('compare saves the --json document, says where last, and report prints it exactly as the run did', async () => {
  const out = folder();
  // the same with --markdown: test/long/results.test.js
  const live = await cli(['compare', '--smoke', '--out', out]);
  assert.equal(live.exitCode, 0, live.stderr);
  const path = savedPath(live);
  assert.equal(lastLine(live.stderr), `mmapbench: saved ${path}`);
  assert.match(path, new RegExp(`^${out}/compare-\\d{8}T\\d{6}\\.\\d{3}Z\\.json$`));
  const again = await cli(['report', path]);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.equal(again.stdout, live.stdout);
  assert.equal(readdirSync(out).length, 1, 'one file per run, nothing else left in --out');
  const json = await cli(['compare', '--smoke', '--json', '--out', out]);
  const document = JSON.parse(json.stdout);
  assert.deepEqual(JSON.parse(readFileSync(savedPath(json), 'utf8')), document);
  assert.equal(document.schema, SCHEMA);
});
