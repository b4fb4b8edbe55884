// The command line of the measuring commands, converted once into the typed objects the run is
// planned and printed from: the options of a measurement (`MeasureOptions`), where and how its
// results go (`Output`), and what --resume allows beside it.
import { isAbsolute, join } from 'node:path';
import { MmapbenchError, usageError } from '../errors.js';
import { confirmBinary, confirmEnv, confirmModules } from '../saved/given-again.js';
import { PUBLISHED_PROTOCOL as PUBLISHED } from '../reference/published.js';
import { defaultOut } from '../saved/out.js';
import { parseVersionSpec } from '../system/node.js';
import { checkDistinct, checkOutput } from '../system/safe-fs.js';
import { quoted, refusal } from '../saved/validate.js';
import { kebab, TASK_PARAMETERS } from '../words/vocabulary.js';
import { measurementSpecs } from './options.js';
import { adviseSpecs, compareOnly } from './command-options.js';
import { apiSchema, flagName, readValue, tagged } from './option-spec.js';

/**
 * With --resume the settings come from the file: any option that would change them is refused,
 * and only those tagged `resume` may be given (option-spec.js, Tag).
 * @param {Record<string, any>} opts  from readOptions
 * @param {import('./option-spec.js').Specs} specs  the command's
 */
export function resumeOnly(opts, specs) {
  const allowed = tagged(specs, 'resume');
  const other = Object.keys(opts).find((name) => !allowed.includes(name));
  // reproduce's experiments are named, not flagged
  const shown = other === 'experiments' ? 'the experiment names' : other && flagName(other);
  if (shown)
    throw usageError(
      `${shown} cannot be used with --resume: the run goes on with the settings it was started with; drop ${shown}`,
    );
}

/** The options as the command line declares them: what a kept setting is checked by. */
/** @type {import('./option-spec.js').Specs} */
const SPECS = measurementSpecs({ compare: true });

/** @type {(value: unknown) => value is Record<string, any>} */
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields of a kept run's options that an option sets as it was typed (tagged `kept`): each
 * is checked, and read, as the command line checks and reads that option (a usage error naming
 * it).
 */
const AS_KEPT = tagged(SPECS, 'kept');

/** A text field: what an option taking any text keeps (not empty, no NUL). */
const TEXT = { type: 'string', minLength: 1, pattern: '^[^\\u0000]*$' };

/**
 * A kept run's options as JSON Schema: each field an option sets as that option's schema (what
 * the API takes of it; a text one not empty), and the shape of what the command line converts
 * (`--env` pairs into an object, a percentage into a fraction) and of what no option sets.
 */
const KEPT = {
  type: 'object',
  properties: {
    ...Object.fromEntries(
      AS_KEPT.map((name) => {
        const schema = apiSchema(name, SPECS[name]);
        return [name, schema.type === 'string' && !SPECS[name].read ? TEXT : schema];
      }),
    ),
    command: { enum: ['compare', 'workers', 'procs'] },
    cwd: TEXT,
    precision: { type: 'number' },
    margin: { type: 'number' },
    env: { type: 'object', propertyNames: { minLength: 1 }, additionalProperties: { type: 'string' } },
    params: { type: 'object' },
    trace: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          properties: { bpftrace: TEXT, mountTracefs: { type: 'boolean' }, window: { enum: ['timed', 'cell'] } },
        },
      ],
    },
  },
};

/** A sweep's variant as --variant makes it: a name and its environment. */
const VARIANT = {
  type: 'object',
  required: ['name', 'env'],
  properties: { name: TEXT, env: KEPT.properties.env },
};

/**
 * What is wrong with one field of a kept run's options, in words that begin with its name, or
 * null: its schema, then the check its option gets on the command line (a range, a size).
 * @param {string} name
 * @param {unknown} value
 * @param {string} [shown]  the field as the error names it (`axes.k[2]`)
 */
const keptField = (name, value, shown = name) => {
  const wrong = refusal(KEPT, `#/properties/${name}`, value, shown);
  if (wrong) return wrong;
  if (name === 'cwd' && !isAbsolute(String(value))) return `cwd must be an absolute path (it is ${quoted(value)})`;
  return AS_KEPT.includes(name) || name === 'precision' || name === 'margin'
    ? keptValue(name, SPECS[name], value, shown)
    : null;
};

/**
 * What is wrong with a kept value of an option, as the command line's check of that option
 * would refuse it (its choices, its range, a size's text), or null: a kept value is the typed
 * value the check returns (a precision the fraction it makes of `--precision 5%`).
 * @param {string} name
 * @param {import('./option-spec.js').OptionSpec | undefined} spec
 * @param {unknown} value
 * @param {string} [shown]  the field as the error names it
 */
export function keptValue(name, spec, value, shown = name) {
  if (!spec?.read && !spec?.choices) return null;
  try {
    readValue(name, spec, value);
    return null;
  } catch (error) {
    if (error instanceof MmapbenchError)
      return `${shown} is refused as the command line would refuse it: ${error.message}`;
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
  const refuse = (/** @type {string} */ why) => usageError(`--resume ${path}: ${field}${why}; start a new run`);
  if (!isRecord(options)) throw refuse(' must be the options the run was started with');
  for (const [name, value] of Object.entries(/** @type {Record<string, unknown>} */ (options))) {
    if (value === undefined) continue;
    // own keys only: a file's "__proto__" or "constructor" is a name like any other
    if (!Object.hasOwn(KEPT.properties, name)) throw refuse(`.${name} is no setting mmapbench keeps`);
    const why = keptField(name, value);
    if (why) throw refuse(`.${why}`);
  }
  const kept = /** @type {import('../run/plan.js').MeasureOptions} */ (options);
  // new rounds at another k would be averaged with the kept ones into one ratio
  if (k !== undefined && kept.k !== undefined && Number(kept.k) !== k)
    throw refuse(`.k (${quoted(kept.k)}) is not the k its rounds ran at (config.k ${k})`);
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
  for (const name of AS_KEPT)
    if (SPECS[name].read && kept[/** @type {keyof typeof kept} */ (name)] !== undefined)
      read[name] = readValue(name, SPECS[name], kept[/** @type {keyof typeof kept} */ (name)]);
  // --force is the user's word, typed now: a file's own `force` would lift the cap on k for it
  return { ...kept, ...read, ...(k === undefined ? {} : { k }), force: Boolean(given.force) };
}

/**
 * How a kept sweep's axis is read: a list of one value or more, each checked as keptField
 * checks the option it is a value of; JSON keeps an axis's "the default" (undefined) as null.
 * @param {(why: string) => Error} refuse
 */
const axisList =
  (refuse) =>
  (/** @type {string} */ name, /** @type {unknown} */ values, /** @type {typeof keptField} */ item = keptField) => {
    if (!Array.isArray(values) || !values.length) throw refuse(`axes.${name} must be a list of one value or more`);
    return values.map((value, i) => {
      if (value === null) return undefined;
      const why = item(name, value, `axes.${name}[${i}]`);
      if (why) throw refuse(why);
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
  const refuse = (/** @type {string} */ why) => usageError(`--resume ${path}: resume.${why}; start a new run`);
  const { axes } = /** @type {{ axes?: Record<string, unknown> }} */ (isRecord(request) ? request : {});
  if (!isRecord(axes)) throw refuse('axes must be the axes the sweep was started with');
  const list = axisList(refuse);
  const nodes = list('node', axes.node);
  const binaries = nodes.filter((node) => node !== undefined && !parseVersionSpec(node));
  if (binaries.length)
    confirmBinary('--node', binaries.join(','), [given.node ?? []].flat().join(',') || undefined, path);
  if (!isRecord(axes.params)) throw refuse('axes.params must map parameter names to lists of values');
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
  const tasks = list('task', axes.task);
  const variants = list('variant', axes.variant, (_, variant, shown) => refusal(VARIANT, '#', variant, shown));
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
      file: list('file', axes.file),
      params,
      k: list('k', axes.k),
      cycles: list('cycles', axes.cycles),
    },
    shared,
  };
}

/**
 * What advise keeps of its own options beside the shared ones: what it ranks by, which
 * candidates (`--only` as typed), the race, the whole k range and other Nodes.
 * @typedef {{ for: string, only: string | null, race: boolean, kAuto: boolean, node: string[] }} AdviseOwn
 * @typedef {{ shared: import('../run/plan.js').MeasureOptions, advise: AdviseOwn }} AdviseRequest
 */

/** advise's own options, the fields of AdviseOwn. */
const ADVISE_OWN = ['for', 'only', 'race', 'kAuto', 'node'];

/**
 * A kept advise's request: its shared options checked as keptOptions checks one compare's, and
 * each of its own as the command line checks that option; a Node binary named again.
 * @param {unknown} request  `resume` of a kept advise
 * @param {{ path: string, given: Record<string, any> }} where
 * @returns {AdviseRequest}
 */
export function keptAdvice(request, { path, given }) {
  const refuse = (/** @type {string} */ why) => usageError(`--resume ${path}: resume.${why}; start a new run`);
  const own = isRecord(request) ? request.advise : undefined;
  if (!isRecord(own)) throw refuse('advise must be the settings the advise run was started with');
  /** @type {import('./option-spec.js').Specs} */
  const specs = adviseSpecs();
  for (const name of ADVISE_OWN) {
    const value = own[name];
    const shown = `advise.${name}`;
    const why =
      name === 'only' && value === null
        ? null
        : (refusal(apiSchema(name, specs[name]), '#', value, shown) ??
          (name === 'node' ? null : keptValue(name, specs[name], value, shown)));
    if (why) throw refuse(why);
  }
  const extra = Object.keys(own).find((name) => !ADVISE_OWN.includes(name));
  if (extra) throw refuse(`advise.${extra} is no setting advise keeps`);
  const nodes = [own.node].flat();
  if (nodes.some((node) => typeof node !== 'string'))
    throw refuse('advise.node must be a list of Node versions or paths');
  const binaries = nodes.filter((node) => !parseVersionSpec(node));
  if (binaries.length)
    confirmBinary('--node', binaries.join(','), [given.node ?? []].flat().join(',') || undefined, path);
  const shared = keptOptions(/** @type {any} */ (request).shared, {
    path,
    field: 'resume.shared',
    given: { ...given, node: undefined },
  });
  confirmModules([shared.task], shared.cwd, given, path);
  confirmEnv([['resume.shared.env', shared.env ?? {}]], given, path);
  return { shared, advise: /** @type {AdviseOwn} */ ({ ...own, node: nodes }) };
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
    const given = compareOnly().filter((name) => opts[name] !== undefined);
    if (given.length) {
      throw usageError(
        `--${kebab(given[0])} is for compare, which runs both arms; drop it or run \`mmapbench compare\``,
      );
    }
  }
  /** @type {Record<string, unknown>} */
  const params = { ...opts.param };
  for (const name of Object.keys(TASK_PARAMETERS)) if (opts[name] !== undefined) params[name] = opts[name];
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
    env: opts.env ?? {},
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
    margin: opts.margin,
    // a CI job gets a fixed budget, calibration included
    maxTime: opts.maxTime ?? (opts.ci && opts.rounds === undefined ? CI_SECONDS : undefined),
    aa: opts.aa,
    fault: opts.fault,
    pool: opts.pool,
    batch: opts.batch,
    isolate: opts.isolate,
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
  // the file --ci replaces, refused before anything is measured where it could not be
  if (opts.save !== false && opts.ci) checkOutput(ci, `--ci's results file ${ci}`);
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
