// The command line of the measuring commands, converted once into the typed objects the run is
// planned and printed from: the options of a measurement (`MeasureOptions`), where and how its
// results go (`Output`), and what --resume allows beside it.
import { isAbsolute, join } from 'node:path';
import { MmapbenchError, usageError } from '../errors.js';
import { confirmBinary, confirmEnv, confirmModules } from '../saved/given-again.js';
import { PUBLISHED_PROTOCOL as PUBLISHED } from '../reference/published.js';
import { defaultOut } from '../saved/out.js';
import { parseVersionSpec } from '../system/node.js';
import { checkDistinct } from '../system/safe-fs.js';
import { quoted } from '../saved/validate.js';
import { kebab, PARAM_OPTIONS, pairs } from '../words/vocabulary.js';
import { COMPARE_ONLY, measurementSpecs } from './options.js';
import { flagName, readValue } from './option-spec.js';

/**
 * What may be given with --resume: how to print, save, export and gate, not what to measure;
 * --force to go on with a task module that changed or a k above the cap; what the file names to
 * run, load or write in (a Node or bpftrace binary, a task module, an environment for the cells,
 * the fixtures' folder) given again, as the user's word that it may.
 */
const WITH_RESUME = [
  ...['verbose', 'json', 'markdown', 'out', 'export', 'failBelow', 'failInconclusive', 'ci', 'resume'],
  ...['force', 'node', 'bpftrace', 'task', 'env', 'fixturesDir'],
];

/**
 * With --resume the settings come from the file: any option that would change them is refused.
 * @param {Record<string, any>} opts  from readOptions
 */
export function resumeOnly(opts) {
  const other = Object.keys(opts).find((name) => !WITH_RESUME.includes(name));
  if (other)
    throw usageError(
      `${flagName(other)} cannot be used with --resume: the run goes on with the settings it was started with; drop ${flagName(other)}`,
    );
}

/** The options as the command line declares them: what a kept setting is checked by. */
/** @type {import('./option-spec.js').Specs} */
const SPECS = measurementSpecs({ compare: true });

/** @type {(value: unknown) => value is Record<string, any>} */
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** @param {unknown} value */
const isText = (value) => typeof value === 'string' && value !== '' && !value.includes('\0');

/**
 * The fields of a kept run's options that an option sets as it was typed: each is checked, and
 * read, as the command line checks and reads that option (a usage error naming it).
 */
const AS_TYPED = [
  ...['task', 'file', 'node', 'fixturesDir', 'force', 'quick', 'inheritEnv', 'protocol', 'aa', 'main'],
  ...['k', 'iterations', 'duration', 'warmup', 'rounds', 'timeout', 'maxTime'],
  ...['requestEvery', 'requestSize', 'settle', 'cycles', 'semiSpace'],
];

/**
 * How a field an option sets is checked: a switch is true or false, a value one value (a string
 * where the option takes any text), through the option's own check where it has one.
 * @param {string} name
 * @returns {(value: unknown) => string | null}  what is wrong with it, or null
 */
const asTyped = (name) => {
  const spec = SPECS[name];
  if (spec.kind === 'flag') return (value) => (typeof value === 'boolean' ? null : 'must be true or false');
  if (!spec.read && !spec.choices)
    return (value) => (isText(value) ? null : `must be text, as ${flagName(name)} takes`);
  return (value) =>
    value !== null && typeof value === 'object'
      ? 'must be one value, as its option takes'
      : refusal(() => readValue(name, spec, value));
};

/**
 * How each field of a kept run's options is checked: by the option that sets it, or, for what
 * the command line converts (`--env` pairs into an object, a percentage into a fraction) and what
 * no option sets, by its shape.
 * @type {Record<string, (value: any) => string | null>}  what is wrong with it, or null
 */
const KEPT = {
  ...Object.fromEntries(AS_TYPED.map((name) => [name, asTyped(name)])),
  command: (value) => (['compare', 'workers', 'procs'].includes(value) ? null : 'must be compare, workers or procs'),
  cwd: (value) => (isText(value) && isAbsolute(value) ? null : 'must be an absolute path'),
  // kept as the fraction the command line makes of --precision 5%
  precision: (value) =>
    refusal(() => readValue('precision', SPECS.precision, typeof value === 'number' ? value * 100 : value)),
  env: (value) =>
    isRecord(value) && Object.entries(value).every(([name, setting]) => name && typeof setting === 'string')
      ? null
      : 'must map variable names to strings, as --env KEY=VALUE does',
  params: (value) => (isRecord(value) ? null : 'must map parameter names to values'),
  trace: (value) => {
    if (value === null) return null;
    if (!isRecord(value)) return 'must be null or what --trace was given with';
    if (value.bpftrace !== undefined && !isText(value.bpftrace)) return 'bpftrace must be a path';
    if (value.mountTracefs !== undefined && typeof value.mountTracefs !== 'boolean')
      return 'mountTracefs must be true or false';
    return value.window === undefined ? null : refusal(() => readValue('traceWindow', SPECS.traceWindow, value.window));
  },
};

/** @param {() => unknown} read  @returns {string | null}  the usage error's words */
function refusal(read) {
  try {
    read();
    return null;
  } catch (error) {
    if (error instanceof MmapbenchError) return `is refused as the command line would refuse it: ${error.message}`;
    throw error;
  }
}

/**
 * A kept run's options, checked before anything runs on them: a results file is data a person
 * may have edited, and these settings start processes. Each field passes the check the option
 * that sets it gets on the command line; a field no option sets is refused. A binary the file
 * names (a Node, bpftrace) runs only when the user names it again (`--node PATH`), and a kept
 * run's folder (`cwd`) stands for the one its relative paths were typed in.
 * @param {unknown} options  `resume`, or a sweep's `resume.shared`
 * @param {{ path: string, field: string, given: Record<string, any>, k?: number }} where  the
 *   file, the field the options are in (`resume`), the options given with --resume, and the k
 *   its rounds ran at, where the file has rounds (`config.k`)
 * @returns {import('../run/plan.js').MeasureOptions}
 */
export function keptOptions(options, { path, field, given, k }) {
  const refuse = (/** @type {string} */ name, /** @type {string} */ why) =>
    usageError(`--resume ${path}: ${field}${name ? `.${name}` : ''} ${why}; start a new run`);
  if (!isRecord(options)) throw refuse('', 'must be the options the run was started with');
  for (const [name, value] of Object.entries(/** @type {Record<string, unknown>} */ (options))) {
    if (value === undefined) continue;
    // own keys only: a file's "__proto__" or "constructor" is a name like any other
    const check = Object.hasOwn(KEPT, name) ? KEPT[name] : undefined;
    if (!check) throw refuse(name, 'is no setting mmapbench keeps');
    const why = check(value);
    if (why) throw refuse(name, `${why.startsWith('is ') ? '' : `(${quoted(value)}) `}${why}`);
  }
  const kept = /** @type {import('../run/plan.js').MeasureOptions} */ (options);
  // new rounds at another k would be averaged with the kept ones into one ratio
  if (k !== undefined && kept.k !== undefined && Number(kept.k) !== k)
    throw refuse('k', `(${quoted(kept.k)}) is not the k its rounds ran at (config.k ${k})`);
  confirmBinary('--node', kept.node && !parseVersionSpec(kept.node) ? kept.node : undefined, given.node, path);
  // a folder the run writes fixtures in, like a binary, is the user's to name
  confirmBinary('--fixtures-dir', kept.fixturesDir, given.fixturesDir, path);
  confirmBinary('--bpftrace', kept.trace?.bpftrace, given.bpftrace, path);
  if (field === 'resume') {
    confirmModules([kept.task], kept.cwd, given, path);
    confirmEnv([[`${field}.env`, kept.env ?? {}]], given, path);
  }
  // what the command line converts, as it would: the typed values
  /** @type {Record<string, unknown>} */
  const read = {};
  for (const name of AS_TYPED)
    if (SPECS[name].read && kept[/** @type {keyof typeof kept} */ (name)] !== undefined)
      read[name] = readValue(name, SPECS[name], kept[/** @type {keyof typeof kept} */ (name)]);
  // --force is the user's word, typed now: a file's own `force` would lift the cap on k for it
  return { ...kept, ...read, ...(k === undefined ? {} : { k }), force: Boolean(given.force) };
}

/**
 * How a kept sweep's axis is read: a list of one value or more, each checked by `item`; JSON
 * keeps an axis's "the default" (undefined) as null.
 * @param {(name: string, why: string) => Error} refuse
 */
const axisList =
  (refuse) =>
  (/** @type {string} */ name, /** @type {unknown} */ values, /** @type {(value: any) => string | null} */ item) => {
    if (!Array.isArray(values) || !values.length) throw refuse(`axes.${name}`, 'must be a list of one value or more');
    return values.map((value, i) => {
      if (value === null) return undefined;
      const why = item(value);
      if (why) throw refuse(`axes.${name}[${i}]`, `${why.startsWith('is ') ? '' : `(${quoted(value)}) `}${why}`);
      return value;
    });
  };

/**
 * A kept sweep's request: its axes and shared options, checked as keptOptions checks one
 * compare's.
 * @param {unknown} request  `resume` of a kept sweep
 * @param {{ path: string, given: Record<string, any> }} where
 * @returns {import('../run/plan.js').SweepRequest}
 */
export function keptSweep(request, { path, given }) {
  const refuse = (/** @type {string} */ name, /** @type {string} */ why) =>
    usageError(`--resume ${path}: resume.${name} ${why}; start a new run`);
  const { axes } = /** @type {{ axes?: Record<string, unknown> }} */ (isRecord(request) ? request : {});
  if (!isRecord(axes)) throw refuse('axes', 'must be the axes the sweep was started with');
  const list = axisList(refuse);
  const nodes = list('node', axes.node, KEPT.node);
  const binaries = nodes.filter((node) => node !== undefined && !parseVersionSpec(node));
  if (binaries.length)
    confirmBinary('--node', binaries.join(','), [given.node ?? []].flat().join(',') || undefined, path);
  if (!isRecord(axes.params)) throw refuse('axes.params', 'must map parameter names to lists of values');
  const params = Object.fromEntries(
    Object.entries(/** @type {Record<string, unknown>} */ (axes.params)).map(([name, values]) => [
      name,
      list(`params.${name}`, values, () => null),
    ]),
  );
  const shared = keptOptions(/** @type {any} */ (request).shared, {
    path,
    field: 'resume.shared',
    given: { ...given, node: undefined },
  });
  const tasks = list('task', axes.task, KEPT.task);
  const variants = list('variant', axes.variant, (variant) =>
    isRecord(variant) && isText(variant.name) && KEPT.env(variant.env) === null
      ? null
      : 'must be a variant as --variant makes it: a name and its environment',
  );
  confirmModules(tasks, shared.cwd, given, path);
  confirmEnv(
    [
      ['resume.shared.env', shared.env ?? {}],
      ...variants.flatMap((variant, i) =>
        variant
          ? [/** @type {[string, Record<string, string>]} */ ([`resume.axes.variant[${i}].env`, variant.env])]
          : [],
      ),
    ],
    given,
    path,
  );
  return {
    axes: {
      node: nodes,
      task: tasks,
      variant: variants,
      file: list('file', axes.file, KEPT.file),
      params,
      k: list('k', axes.k, KEPT.k),
      cycles: list('cycles', axes.cycles, KEPT.cycles),
    },
    shared,
  };
}

/**
 * The command line of a measuring command, converted once into the options object the run is
 * planned from.
 * @param {Record<string, any>} opts  from readOptions
 * @param {'workers'|'procs'|'compare'} command
 * @param {{ trace?: boolean }} [force]
 * @returns {import('../run/plan.js').MeasureOptions}
 */
export function measureOptions(opts, command, { trace = false } = {}) {
  if (command !== 'compare') {
    const given = COMPARE_ONLY.filter((name) => opts[name] !== undefined);
    if (given.length) {
      throw usageError(
        `--${kebab(given[0])} is for compare, which runs both arms; drop it or run \`mmapbench compare\``,
      );
    }
  }
  const params = pairs(opts.param, '--param', 'concurrency=8');
  for (const name of PARAM_OPTIONS) if (opts[name] !== undefined) params[name] = opts[name];
  const published = opts.protocol === 'published';
  return {
    command,
    // what a relative path given here (task, file, messages, fixtures) is relative to, kept
    cwd: process.cwd(),
    task: opts.task,
    file: opts.file,
    k: opts.k,
    force: Boolean(opts.force),
    iterations: published ? PUBLISHED.iterations : opts.iterations,
    duration: opts.duration,
    warmup: published ? PUBLISHED.warmup : opts.warmup,
    protocol: opts.protocol ?? 'steady',
    rounds: opts.rounds,
    env: pairs(opts.env, '--env', 'MALLOC_ARENA_MAX=1'),
    inheritEnv: Boolean(opts.inheritEnv),
    params,
    node: opts.node,
    timeout: opts.timeout,
    // the investigation's protocol measured the workers with no app on the parent's main thread
    main: opts.main ?? (published ? 'off' : undefined),
    requestEvery: opts.requestEvery,
    requestSize: opts.requestSize,
    settle: opts.settle,
    cycles: opts.cycles,
    semiSpace: opts.semiSpace,
    fixturesDir: opts.fixturesDir,
    quick: Boolean(opts.quick || opts.smoke),
    precision: opts.precision,
    // a CI job gets a fixed budget, calibration included
    maxTime: opts.maxTime ?? (opts.ci && opts.rounds === undefined ? CI_SECONDS : undefined),
    aa: opts.aa,
    trace:
      trace || opts.trace
        ? {
            bpftrace: opts.bpftrace,
            mountTracefs: Boolean(opts.mountTracefs),
            // the investigation traced whole runs
            window: opts.traceWindow ?? (published ? 'cell' : 'timed'),
          }
        : null,
  };
}

/**
 * The files `--export` writes, as checkDistinct takes them.
 * @param {import('../saved/export.js').ExportRequest[]} exports
 */
export const exportsWritten = (exports) =>
  exports.map(({ format, file }) => ({
    path: file,
    as: `--export ${format}=${file}`,
    what: `the export --export ${format}=${file} writes`,
  }));

/** The time budget of `--ci`, in seconds. */
const CI_SECONDS = 30;

/**
 * How a result is printed, where it is saved and exported, and the CI gate it must pass.
 * @param {Record<string, any>} opts  from readOptions
 * @param {string} command  what the file is named after: the command the user ran
 * @param {{ summary?: string }} [cli]  the step summary the command line appends to with --ci
 *   ($GITHUB_STEP_SUMMARY), checked as an output like the others
 * @returns {Output}
 *
 * @typedef {object} Output
 * @property {'terminal'|'markdown'|'json'} format
 * @property {import('../saved/save.js').SaveTo} save
 * @property {import('../saved/export.js').ExportRequest[]} exports
 * @property {{ threshold: number, failInconclusive: boolean } | null} gate
 * @property {boolean} ci  a CI job: a line per round, the gate's outcome (or its absence) last
 * @property {string | null} summary  with --ci, the step summary it appends to
 * @property {boolean} verbose  also where a round's time went
 */
export const output = (opts, command, { summary } = {}) => {
  if (opts.failInconclusive && opts.failBelow === undefined)
    throw usageError('--fail-inconclusive needs a gate: add --fail-below RATIO');
  const out = opts.out ?? defaultOut();
  /** @type {import('../saved/export.js').ExportRequest[]} */
  const exports = opts.export ?? [];
  const ci = join(out, `${command}-ci.json`);
  checkDistinct(
    [
      ...(opts.resume ? [{ path: opts.resume, what: `${opts.resume}, which --resume goes on with` }] : []),
      // the results file, where its name is known before the run
      ...(opts.save !== false && opts.ci ? [{ path: ci, what: `the results file ${ci}` }] : []),
    ],
    [
      ...exportsWritten(exports),
      ...(opts.ci && summary
        ? [{ path: summary, as: `$GITHUB_STEP_SUMMARY ${summary}`, what: 'the step summary' }]
        : []),
    ],
  );
  return {
    format: opts.json ? 'json' : opts.markdown ? 'markdown' : 'terminal',
    save:
      opts.save === false
        ? null
        : {
            out,
            outGiven: opts.out !== undefined,
            command,
            ...(opts.ci ? { fixedName: `${command}-ci` } : {}),
          },
    exports,
    gate:
      opts.failBelow === undefined
        ? null
        : { threshold: opts.failBelow, failInconclusive: Boolean(opts.failInconclusive) },
    ci: Boolean(opts.ci),
    summary: (opts.ci && summary) || null,
    verbose: Boolean(opts.verbose),
  };
};
