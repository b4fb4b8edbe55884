// The command line of the measuring commands, converted once into the typed objects the run is
// planned and printed from: the options of a measurement (`MeasureOptions`), where and how its
// results go (`Output`), and what --resume allows beside it.
import { usageError } from '../errors.js';
import { PUBLISHED } from '../reproduce/protocols.js';
import { defaultOut } from '../saved/out.js';
import { kebab, PARAM_OPTIONS, pairs } from '../words/vocabulary.js';
import { COMPARE_ONLY } from './options.js';
import { flagName } from './option-spec.js';

/** What may be given with --resume: how to print, save, export and gate, not what to measure. */
const WITH_RESUME = ['verbose', 'json', 'markdown', 'out', 'export', 'failBelow', 'failInconclusive', 'ci', 'resume'];

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

/** The time budget of `--ci`, in seconds. */
const CI_SECONDS = 30;

/**
 * How a result is printed, where it is saved and exported, and the CI gate it must pass.
 * @param {Record<string, any>} opts  from readOptions
 * @param {string} command  what the file is named after: the command the user ran
 * @returns {Output}
 *
 * @typedef {object} Output
 * @property {'terminal'|'markdown'|'json'} format
 * @property {import('../saved/save.js').SaveTo} save
 * @property {import('../saved/export.js').ExportRequest[]} exports
 * @property {{ threshold: number, failInconclusive: boolean } | null} gate
 * @property {boolean} ci  a CI job: a line per round, the gate's outcome (or its absence) last
 * @property {boolean} verbose  also where a round's time went
 */
export const output = (opts, command) => {
  if (opts.failInconclusive && opts.failBelow === undefined)
    throw usageError('--fail-inconclusive needs a gate: add --fail-below RATIO');
  return {
    format: opts.json ? 'json' : opts.markdown ? 'markdown' : 'terminal',
    save:
      opts.save === false
        ? null
        : {
            out: opts.out ?? defaultOut(),
            outGiven: opts.out !== undefined,
            command,
            ...(opts.ci ? { fixedName: `${command}-ci` } : {}),
          },
    exports: opts.export ?? [],
    gate:
      opts.failBelow === undefined
        ? null
        : { threshold: opts.failBelow, failInconclusive: Boolean(opts.failInconclusive) },
    ci: Boolean(opts.ci),
    verbose: Boolean(opts.verbose),
  };
};
