// Fields each of the right type that do not agree with each other, and every field typed on
// load (issue rows 6 and 17): each refused naming the field, the same for every reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSaved } from '../../src/commands/index.js';
import { definitionOf } from '../../src/saved/validate.js';
import { PROTOCOL_CHOICES } from '../../src/commands/reproduce/protocols.js';
import { about } from '../../src/document/sentences.js';
import { MmapbenchError } from '../../src/errors.js';
import { fixture } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mmapbench-relations-'));
let n = 0;
/** `name` from the saved fixtures, changed by `edit`, written anew: its path. */
function edited(/** @type {string} */ name, /** @type {(document: any) => void} */ edit) {
  const text = readFileSync(fixture(`saved/${name}`), 'utf8');
  const path = join(dir, `${n++}-${name}`);
  if (name.endsWith('.jsonl')) {
    const [header, ...rest] = text.split('\n');
    const parsed = JSON.parse(header);
    edit(parsed);
    writeFileSync(path, [JSON.stringify(parsed), ...rest].join('\n'));
  } else {
    const document = JSON.parse(text);
    edit(document);
    writeFileSync(path, JSON.stringify(document));
  }
  return path;
}

const refused = (/** @type {string} */ path, /** @type {RegExp} */ field) =>
  assert.throws(
    () => loadSaved(path),
    (error) => error instanceof MmapbenchError && error.code === 'usage' && field.test(error.message),
  );

/** A split of the rounds' spread as compare saves one. */
const NOISE = {
  rounds: 4,
  sd: 0.1,
  trees: 0.9,
  windows: 0.1,
  drift: 0,
  floor: { scale: 1, seconds: 100 },
  seconds: 100,
};
/** The schedule's choice, read after round 3 from its 3 rounds. */
const SCHEDULED = { after: 3, rounds: 3, trees: 0.4, windows: 0.6, scale: 2, seconds: 100, floorSeconds: 60 };

test("row 6: a worker's warm-up is typed on load: a ramp that is not a list of numbers, or far longer than any run makes", () => {
  const ramp = (/** @type {(ramp: any) => void} */ edit) =>
    edited('compare-ramp.json', (d) => edit(d.rounds[0].workers.workers[0].warmup.ramp));
  loadSaved(ramp(() => {}));
  refused(
    ramp((r) => (r.atUs = { length: 1e9 })),
    /rounds\[0\]\.workers\.workers\[0\]\.warmup\.ramp\.atUs must be an array/,
  );
  refused(
    ramp((r) => (r.atUs = Array(1e5).fill(1))),
    /\.atUs must hold at most 1000 items/,
  );
  refused(
    ramp((r) => (r.atUs[0] = 'x')),
    /\.atUs\[0\] must be a number/,
  );
  refused(
    ramp((r) => (r.batch = 'x')),
    /\.ramp\.batch must be a whole number/,
  );
});

test('row 17: a noise split and a schedule whose fields disagree are refused, naming them', () => {
  const withNoise = (/** @type {any} */ noise, /** @type {any} */ scheduled) =>
    edited('compare-app.json', (d) => {
      d.noise = noise;
      d.sizing = { ...d.sizing, ...(scheduled ? { scheduled } : {}) };
    });
  loadSaved(withNoise(NOISE, SCHEDULED));
  refused(
    withNoise({ ...NOISE, windows: 0.9 }, null),
    /noise\.trees 0\.9 and noise\.windows 0\.9 are the shares of one spread/,
  );
  refused(
    withNoise({ ...NOISE, floor: { scale: 1, seconds: 1e308 } }, null),
    /noise\.floor\.seconds 1e\+308 is more than noise\.seconds 100/,
  );
  refused(withNoise({ ...NOISE, floor: { scale: 5, seconds: 1 } }, null), /noise\.floor\.scale must be one of/);
  refused(withNoise(NOISE, { ...SCHEDULED, after: 0 }), /sizing\.scheduled read 3 rounds after round 0/);
  refused(withNoise(NOISE, { ...SCHEDULED, rounds: 50 }), /sizing\.scheduled read 50 rounds after round 3/);
  refused(
    withNoise(NOISE, { ...SCHEDULED, after: 500, rounds: 3 }),
    /sizing\.scheduled\.after is round 500, but the last round kept is/,
  );
  refused(withNoise(NOISE, { ...SCHEDULED, windows: 0.9 }), /sizing\.scheduled\.trees 0\.4 and \.windows 0\.9/);
  // a sweep's points are checked as a compare is
  refused(
    edited('sweep.json', (d) => (d.points[1].noise = { ...NOISE, trees: 0.2 })),
    /points\[1\]\.noise\.trees 0\.2 and noise\.windows 0\.1/,
  );
});

test("row 17: a reproduce file's options are typed on load as --resume checks them, and name nothing else", () => {
  loadSaved(edited('reproduce.jsonl', () => {}));
  refused(
    edited('reproduce.jsonl', (h) => (h.options.k = '2')),
    /options\.k must be a number \(it is "2"\)/,
  );
  refused(
    edited('reproduce.jsonl', (h) =>
      Object.defineProperty(h.options, '__proto__', { value: { k: 1 }, enumerable: true }),
    ),
    /options holds a name mmapbench never saves/,
  );
  assert.deepEqual(definitionOf('reproduceOptions').properties.protocol.enum, PROTOCOL_CHOICES);
});

test('a time of days or more is said in days, never with an exponent', () => {
  assert.equal(about(100 * 60), '2 h');
  assert.equal(about(5 * 86400), '5 days');
  assert.equal(about(1e308), 'more than 1000 days');
});

test("round five, row 8: a user's task kept as anything but a file: URL of this machine is refused, naming the field", () => {
  for (const module of ['/tmp/x.mjs', 'http://example.com/x.mjs', 'data:text/javascript,1', 'file://otherhost/x', 7])
    refused(
      edited('compare-five.json', (document) => {
        document.config.task.builtin = false;
        document.config.task.module = module;
      }),
      /^\S+: config\.task\.module is .*not a file: URL.*; a user's task is kept as the file: URL of its module/,
    );
  // a file: URL of this machine is a user's task as saved
  loadSaved(
    edited('compare-five.json', (document) => {
      document.config.task.builtin = false;
      document.config.task.module = 'file:///tmp/x.mjs';
    }),
  );
});

test('round five, row 9: a verdict its rounds do not give is refused: an interval turned round, an outcome its interval does not decide, none, or a made-up one', () => {
  for (const [edit, field] of /** @type {Array<[(verdict: any, document: any) => void, RegExp]>} */ ([
    [
      (verdict) => (verdict.interval = [verdict.interval[1], verdict.interval[0]]),
      /verdict\.interval \[[\d.]+, [\d.]+\] is not the/,
    ],
    [(verdict) => (verdict.interval = [1e308, 1e308]), /verdict\.interval \[1e\+308, 1e\+308\] is not the/],
    [(verdict) => (verdict.outcome = 'workers'), /verdict\.outcome "workers" is not the "procs" its interval/],
    [(verdict) => (verdict.outcome = 'equal'), /verdict\.outcome "equal" is not the "procs"/],
    [(_, document) => (document.verdict = null), /verdict is null, but points\[0\]\.ratio has 5 rounds' ratios/],
  ]))
    refused(
      edited('compare-five.json', (document) => edit(document.verdict, document)),
      // named where the layout of today keeps it: the compare's one point
      new RegExp(`^\\S+: points\\[0\\]\\.${field.source}`),
    );
  // as saved, it loads
  assert.equal(loadSaved(fixture('saved/compare-five.json')).document.points[0].verdict.outcome, 'procs');
});

test('round five, row 22: a field of two shapes of one type is said once: "must be an object", not "an object or an object"', () => {
  refused(
    edited('compare-pool-interrupted.json', (document) => {
      document.fault = { kind: 'throw', workers: 5 };
    }),
    /: fault\.workers must be an object \(it is 5\); the file was changed/,
  );
});
