// What a reproduce run is asked for, checked once: a new run's flags, or the options a results
// document kept for --resume, each checked as its flag is (a results file is data, and never
// chooses what runs).
import { resolve } from 'node:path';
import { usageError } from '../../errors.js';
import { usableCpus } from '../../system/cpus.js';
import { checkK } from '../../run/plan.js';
import { THP_PATH } from '../../system/environment.js';
import { confirmBinary } from '../../saved/given-again.js';
import { kebab } from '../../words/vocabulary.js';
import { EXPERIMENT_NAMES } from './experiments.js';
import { definitionOf, firstBadField } from '../../saved/validate.js';
import { keptValue } from '../../core/typed-options.js';
import { tagged } from '../../core/option-spec.js';
import { SPECS_OF } from '../../core/command-options.js';

const SPECS = SPECS_OF.reproduce();
import { QUICK_EXPERIMENTS, ROUNDS } from './bounds.js';
import { DEFAULTS } from '../../run/defaults.js';

/**
 * What `mmapbench reproduce` was asked, as typed: undefined where an option was not given
 * (--resume takes those from the results file).
 * @typedef {object} ReproduceRequest
 * @property {string[]} experiments
 * @property {boolean} [list]
 * @property {boolean} [quick]
 * @property {number} [k]
 * @property {number} [rounds]
 * @property {number} [maxRounds]
 * @property {number} [duration]
 * @property {number} [timeout]
 * @property {boolean} [force]
 * @property {string} [node]
 * @property {string} [out]
 * @property {string} [resume]
 * @property {string} [jemalloc]
 * @property {string} [thpPath]
 * @property {string} [thpRestoreFile]
 * @property {string} [fixturesDir]
 * @property {boolean} [markdown]
 * @property {boolean} [verbose]  the whole report rather than the verdicts
 * @property {import('./protocols.js').ProtocolChoice} [protocol]
 * @property {import('../../saved/export.js').ExportRequest[]} [export]  written once the run is complete
 */

/**
 * What a new run is asked for, checked before anything starts.
 * @param {ReproduceRequest & { precision?: number }} request
 */
function newOptions(request) {
  // the CPUs this process may use (its affinity and its cgroup's quota), as a compare's plan counts them
  const cores = usableCpus().usable;
  return checkOptions(
    {
      experiments: [request.experiments ?? []].flat(),
      quick: Boolean(request.quick),
      k: request.k ?? Math.min(8, cores),
      rounds: request.rounds ?? null,
      maxRounds: request.maxRounds ?? ROUNDS.max,
      // none: every claim decided by the verdict's rule (runner.js); a width only when asked for
      precision: request.precision ?? null,
      duration: request.duration ?? DEFAULTS.duration,
      timeout: request.timeout ?? (request.quick ? QUICK_EXPERIMENTS.timeout : DEFAULTS.timeout),
      node: request.node,
      jemalloc: request.jemalloc,
      thpPath: request.thpPath ?? THP_PATH,
      fixturesDir: request.fixturesDir,
      protocol: request.protocol ?? 'fresh',
    },
    { force: request.force },
  );
}

/**
 * @param {Record<string, unknown>} options  a new run's, or a results file's header's
 * @param {{ force?: boolean }} [flags]
 * @returns {import('./types.js').ReproduceOptions}
 */
function checkOptions(options, { force = false } = {}) {
  // the schema a results file's header is read with (results.schema.json): one place for both
  const wrong = firstBadField(options, 'reproduceOptions');
  if (wrong) throw usageError(wrong.replace(/^the document/, 'the options'));
  // what a run cannot start without, which a file read by report may leave out
  const missing = ['experiments', 'quick'].find((name) => options[name] === undefined);
  if (missing) throw usageError(`${missing} is missing`);
  const experiments = /** @type {string[]} */ (options.experiments);
  const unknown = experiments.filter((name) => !EXPERIMENT_NAMES.includes(name));
  if (unknown.length)
    throw usageError(
      `no experiment ${unknown.join(', ')}; the experiments are ${EXPERIMENT_NAMES.join(', ')} (see \`mmapbench reproduce --list\`)`,
    );
  const names = Object.keys(definitionOf('reproduceOptions').properties);
  /** @type {Record<string, any>} */
  const checked = Object.fromEntries(names.map((name) => [name, options[name] ?? undefined]));
  checked.thpPath ??= THP_PATH;
  for (const name of names) {
    // each as its flag's own check reads it: reproduce's flags are its options' one definition
    const wrong =
      checked[name] === null || checked[name] === undefined
        ? null
        : keptValue(name, /** @type {any} */ (SPECS)[name], checked[name]);
    if (wrong) throw usageError(wrong);
  }
  for (const name of ['k', 'maxRounds', 'duration', 'timeout'])
    if (checked[name] === undefined) throw usageError(`${name} is missing`);
  // before the first experiment: its plans are made one experiment at a time
  checkK(checked.k, { force, cores: usableCpus().usable });
  // every field checked above, each as its flag would be
  return /** @type {import('./types.js').ReproduceOptions} */ (/** @type {unknown} */ (checked));
}

// What a results file may not decide on its own (tagged `again`): the programs and files root
// runs or writes, and the folder it writes fixtures in; each needs naming again unless the file
// keeps the option's own default.
const GIVEN_AGAIN = /** @type {Array<'node' | 'jemalloc' | 'thpPath' | 'fixturesDir'>} */ (tagged(SPECS, 'again'));
/** @param {string} name */
const defaultOf = (name) => /** @type {Record<string, { default?: unknown }>} */ (SPECS)[name].default;

/**
 * The stored options of a run to resume, checked like new ones, and the flags given with it.
 * @param {ReproduceRequest} request
 * @param {unknown} stored
 * @param {string} file
 */
function resumedOptions(request, stored, file) {
  let options;
  try {
    options = checkOptions(/** @type {Record<string, unknown>} */ (stored), { force: request.force });
  } catch (error) {
    throw usageError(`--resume ${file}: its stored options are invalid (${error.message})`, error);
  }
  for (const name of GIVEN_AGAIN) {
    const stored = options[name];
    confirmBinary(`--${kebab(name)}`, stored, request[name], file, {
      same: (given, kept) => resolve(given) === resolve(kept),
      // the default (--thp-path's own) needs no naming
      needed: stored !== undefined && stored !== defaultOf(name),
    });
  }
  return options;
}

/**
 * The flags a resume must be given again (GIVEN_AGAIN).
 * @param {import('./types.js').ReproduceOptions} options
 * @returns {string[]}
 */
export const resumeFlags = (options) =>
  GIVEN_AGAIN.flatMap((name) => {
    const value = options[name];
    return value !== defaultOf(name) ? [`--${kebab(name)}`, String(value)] : [];
  });

/**
 * The options of the run a command line asks for: a new one's, checked, or with --resume those
 * stored in the file it names (with the file read, for the run to continue).
 * @param {ReproduceRequest} request
 * @returns {Promise<{ options: import('./types.js').ReproduceOptions, resumed: { path: string, document: import('./types.js').ReproduceDocument } | null }>}
 */
export async function requestedOptions(request) {
  if (!request.resume) return { options: newOptions(request), resumed: null };
  // what shapes the measurement (every option not tagged `resume`, and the experiments named)
  // comes from the results file
  const given = Object.fromEntries(
    Object.entries(request).filter(
      ([name, value]) => value !== undefined && (name !== 'experiments' || /** @type {string[]} */ (value).length),
    ),
  );
  // any kind of saved file may be passed: the registry of every kind says which it is
  const kept = (await import('../index.js')).resumedRun({ ...given, resume: request.resume }, 'reproduce', SPECS);
  return {
    options: resumedOptions(request, kept.request, request.resume),
    resumed: { path: kept.path, document: kept.document },
  };
}
