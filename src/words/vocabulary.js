// How a user writes things on the command line: option names, value checks and the spelling of
// task parameters. One place, so every message names an option the way the user typed it.
import { resolve } from 'node:path';
import { usageError } from '../errors.js';
import { parseSize } from './spelling.js';

/** `maxTime` as typed: `max-time`. @param {string} name */
export const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `max-time` as the code reads it: `maxTime`. @param {string} name */
export const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/**
 * A check of what was typed for one option: given the option's name as typed, it turns a raw
 * value into the option's value, or throws a usage error naming the option.
 * @template T
 * @typedef {(name: string) => (raw: unknown) => T} Check
 */

/**
 * The task parameters common enough to have an option of their own, declared once: what each
 * sets, what it takes (its check: a count a positive integer, bytes a size, anything else text)
 * and an example of a sweep's list of it. The option table makes each an option
 * (core/options.js, settingSpecs); the rest go through --param.
 */
export const TASK_PARAMETERS = /** @type {const} */ ({
  concurrency: { describe: 'operations in flight per worker', takes: 'count', example: '1,8' },
  poolSize: { describe: 'Buffer.poolSize (bytes, 256k, 1m)', takes: 'bytes', example: '8k,256k,1m' },
  size: { describe: 'bytes each op allocates, or a message holds', takes: 'bytes', example: '4k,64k' },
  partition: { describe: 'threadpool-clog reads in chunks of this many bytes', takes: 'bytes', example: '64k,512k' },
  shape: {
    describe: 'what the message task sends, object, json, buffer, transfer or shared',
    takes: 'name',
    example: 'object,buffer',
  },
  serialization: {
    describe: "the message task's fork serialization in procs mode, json or advanced",
    takes: 'name',
    example: 'json,advanced',
  },
  message: {
    describe: 'a JSON or JSON-lines file of your own messages for the message task',
    takes: 'path',
    example: 'jobs.jsonl',
  },
});

/** Whether a task parameter has an option of its own (TASK_PARAMETERS). @param {string} name */
export const ownOption = (name) => Object.hasOwn(TASK_PARAMETERS, name);

/** How a user sets a parameter on the command line. @param {string} name */
export const paramFlag = (name) => (ownOption(name) ? `--${kebab(name)}` : `--param ${name}=`);

/**
 * A parameter set to a value as typed: `--size 64k`, `--param op=stat`.
 * @param {string} name @param {unknown} value
 */
export const paramSetting = (name, value) => `${paramFlag(name)}${ownOption(name) ? ' ' : ''}${value}`;

/** A decimal number as typed: `2`, `-0.5`, `.5`, `1e9`. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/**
 * A whole number as typed, one rule for every count (-k, --rounds, --iterations, a task's integer
 * parameter) and size: digits, without a sign, an exponent or a leading zero (`-k 01`, `+1`, `1e0`).
 */
const WHOLE = /^(0|[1-9]\d*)$/;

/** @param {unknown} value */
const last = (value) => (Array.isArray(value) ? value.at(-1) : value);

/**
 * A number's rule as JSON Schema (its `type`, `minimum`, `exclusiveMinimum`, `maximum`) and the
 * unit it is said in: one definition for the check of what was typed (or given to the API, or
 * kept in a file) and for the words that say what it must be.
 * @typedef {{ type: 'integer' | 'number', minimum?: number, exclusiveMinimum?: number, maximum?: number, unit?: string }} NumberRule
 */

/** What a number must be, in words, from its rule: `a whole number of MiB from 1 to 1024`. @param {NumberRule} rule */
const expectation = ({ type, minimum, exclusiveMinimum, maximum, unit }) => {
  const kind = `${type === 'integer' ? 'a whole number' : 'a number'}${unit ? ` of ${unit}` : ''}`;
  if (exclusiveMinimum !== undefined)
    return `${kind} greater than ${exclusiveMinimum}${maximum === undefined ? '' : ` and at most ${maximum}`}`;
  if (minimum !== undefined)
    return maximum === undefined ? `${kind} of ${minimum} or more` : `${kind} from ${minimum} to ${maximum}`;
  return kind;
};

/** Whether `n` keeps `rule`, as a JSON Schema checker reads it. @param {NumberRule} rule @param {number} n */
const keeps = (rule, n) =>
  Number.isFinite(n) &&
  (rule.type === 'number' || Number.isInteger(n)) &&
  !(rule.minimum !== undefined && n < rule.minimum) &&
  !(rule.exclusiveMinimum !== undefined && n <= rule.exclusiveMinimum) &&
  !(rule.maximum !== undefined && n > rule.maximum);

/**
 * The check of a number by its rule: what was typed (a whole number as WHOLE writes it, any other
 * as DECIMAL) or a number, else a usage error naming the option and what it must be. The rule
 * rides on the check as `schema`.
 * @param {NumberRule} rule
 * @returns {Check<number> & { schema: NumberRule }}
 */
const numberOf = (rule) =>
  Object.assign(
    (/** @type {string} */ name) => (/** @type {unknown} */ raw) => {
      const value = last(raw);
      const number = typeof value === 'number' ? value : Number(value);
      // a number as people write it: Number() would also read 0x2, 0b10, ' 2 ' and Infinity
      const form = rule.type === 'integer' ? WHOLE : DECIMAL;
      const written = typeof value === 'number' || (typeof value === 'string' && form.test(value));
      if (!written || !keeps(rule, number))
        throw usageError(`${name} ${value} is invalid: it must be ${expectation(rule)}`);
      // a whole number past 2^53 is no longer every whole number (99999999999999999999 is 1e20)
      if (rule.type === 'integer' && !Number.isSafeInteger(number))
        throw usageError(
          `${name} ${value} is too large: it must be ${expectation(rule)}, at most ${Number.MAX_SAFE_INTEGER}`,
        );
      return number;
    },
    { schema: rule },
  );

export const positiveInteger = numberOf({ type: 'integer', minimum: 1 });
const wholeCount = numberOf({ type: 'integer', minimum: 0 });
/** --warmup: a count, or `steady` (until the rate stops trending). @type {Check<number | 'steady'>} */
export const warmupCount = (name) => (raw) => {
  if (last(raw) === 'steady') return 'steady';
  try {
    return wholeCount(name)(raw);
  } catch (error) {
    throw usageError(`${error.message}, or steady`);
  }
};
export const positiveNumber = numberOf({ type: 'number', exclusiveMinimum: 0 });
/**
 * --request-every: ms between the app's requests. Node's timers fire at most every 1 ms (a shorter
 * interval is 1 ms), and a request less often than every second leaves a window without any.
 */
export const requestEveryMs = numberOf({ type: 'number', minimum: 1, maximum: 1000, unit: 'ms' });
/** --request-size: what the app's main thread allocates for each request, as a message is bounded. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** @type {Check<number>} */
export const requestBytes = (name) => (raw) => {
  const size = bytes(name)(raw);
  if (size > MAX_REQUEST_BYTES)
    throw usageError(
      `${name} ${last(raw)} is invalid: it must be a size from 1 byte to 64m, what one request may allocate`,
    );
  return size;
};
/** --settle: ms from 0 to a minute. */
export const settleMs = numberOf({ type: 'number', minimum: 0, maximum: 60_000, unit: 'ms' });
/** --cycles: each one runs the workers' whole window again, so a few dozen at most. */
export const cycleCount = numberOf({ type: 'integer', minimum: 1, maximum: 64 });
// MiB of a V8 semi-space: V8 takes up to 1 GiB
export const semiSpaceMiB = numberOf({ type: 'integer', minimum: 1, maximum: 1024, unit: 'MiB' });
const finiteNumber = numberOf({ type: 'number' });

/** Node's timers hold at most 2^31-1 ms; a longer one fires after 1 ms, killing every cell. */
const MAX_TIMEOUT_SECONDS = 2_147_483;
export const timeoutSeconds = numberOf({
  type: 'number',
  exclusiveMinimum: 0,
  maximum: MAX_TIMEOUT_SECONDS,
  unit: 'seconds',
});

/**
 * A share, kept as a fraction (0.05): typed as a percentage in (0, 100), `5%` or `5`; given as a
 * number (the API's, a kept run's), the fraction itself, in (0, 1). @type {Check<number>}
 */
export const percent = (name) => (raw) => {
  const value = last(raw);
  if (typeof value === 'number') {
    if (value > 0 && value < 1) return value;
    throw usageError(
      `${name} ${value} is invalid: it must be a fraction between 0 and 1, such as 0.05, or a text such as '5%'`,
    );
  }
  // a number as people write it, as every other option's (Number() would also read ' 10', 0x2)
  const digits = String(value).replace(/%$/, '');
  const number = Number(digits);
  if (typeof value === 'boolean' || !DECIMAL.test(digits) || !(number > 0 && number < 100)) {
    throw usageError(`${name} ${value} is invalid: it must be a percentage between 0 and 100, such as 5%`);
  }
  return number / 100;
};

/** Bytes, from `262144`, `256k` or `1m`. @type {Check<number>} */
export const bytes = (name) => (raw) => {
  const value = last(raw);
  const size = typeof value === 'number' ? value : parseSize(value);
  if (size === null || !Number.isInteger(size) || size < 1)
    throw usageError(`${name} ${value} is invalid: it must be a whole number of bytes or a size such as 256k or 1m`);
  return size;
};

/** How each declared parameter type is read from what was typed. */
export const PARAM_VALUE = {
  integer: positiveInteger,
  size: bytes,
  number: finiteNumber,
  string: () => (/** @type {unknown} */ value) => String(value),
  // a file the task reads, from the folder the run was started in, so a saved run names it whole
  path:
    (/** @type {string} */ _name, cwd = process.cwd()) =>
    (/** @type {unknown} */ value) =>
      resolve(cwd, String(value)),
};

/**
 * `KEY=VALUE` pairs into an object with own properties only (`__proto__` is just a name): as
 * typed, once or repeated, or an object of them (the API's `{ MALLOC_ARENA_MAX: 1 }`).
 * @param {unknown} list
 * @param {string} option  as typed, for the message
 * @param {string} example  a pair that would do, for the message
 * @returns {Record<string, string>}
 */
export function pairs(list, option, example) {
  const entries = [];
  for (const item of [list ?? []].flat())
    if (item && typeof item === 'object')
      entries.push(...Object.entries(item).map(([key, value]) => `${key}=${value}`));
    else entries.push(String(item));
  return Object.fromEntries(
    entries.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw usageError(`${option} ${pair} is not KEY=VALUE; write it as ${option} ${example}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/**
 * A comma-separated list option (`-k 1,2,4,8`): each item checked by `item`, the option
 * given twice adding to the list. An empty item or a value given twice is an error.
 * @param {string} name  the option as typed
 * @template T
 * @param {Check<T>} item  a check such as positiveInteger
 * @param {string} example
 * @returns {(raw: unknown, previous?: T[]) => T[]}
 */
export const listOf = (name, item, example) => (raw, previous) =>
  addToList(name, item, example, raw, [...(previous ?? [])]);

/**
 * Adds the items of one comma-separated list to `values`, each checked by `item` and looked up
 * once in `seen` (what each value already listed is): a list of 100,000 is read in linear time,
 * so the check on its length comes at once.
 * @template T
 * @param {string} name
 * @param {Check<T>} item
 * @param {string} example
 * @param {unknown} raw  one list as typed
 * @param {T[]} values  added to
 * @param {Set<string>} [seen]
 * @returns {T[]}
 */
export function addToList(
  name,
  item,
  example,
  raw,
  values,
  seen = new Set(values.map((value) => JSON.stringify(value))),
) {
  const parts = String(raw)
    .split(',')
    .map((part) => part.trim());
  if (parts.some((part) => part === ''))
    throw usageError(`${name} ${raw} has an empty item; write a comma-separated list such as ${name} ${example}`);
  for (const part of parts) {
    const value = item(name)(part);
    const key = JSON.stringify(value);
    if (seen.has(key)) throw usageError(`${name} lists ${part} twice; give each value once`);
    seen.add(key);
    values.push(value);
  }
  return values;
}

/** A list item taken as typed: a name, a size or a path. @type {Check<unknown>} */
export const text = () => (value) => value;

/**
 * `--variant NAME[:KEY=VALUE[,KEY=VALUE...]]`: a named set of environment
 * variables; `default` adds none. Two variants of one name are an error.
 */
/**
 * @param {unknown} raw  one --variant as typed
 * @param {Array<{ name: string, env: Record<string, string> }>} [previous]  those before it
 */
export function variant(raw, previous) {
  const at = String(raw).indexOf(':');
  const name = at === -1 ? String(raw) : String(raw).slice(0, at);
  const example = 'arena1:MALLOC_ARENA_MAX=1';
  if (!/^[\w.+-]+$/.test(name))
    throw usageError(`--variant ${raw} has no name (letters, digits, . _ + -); write it as --variant ${example}`);
  const settings =
    at === -1
      ? []
      : String(raw)
          .slice(at + 1)
          .split(',');
  const bad = settings.find((pair) => pair.indexOf('=') < 1);
  if (bad !== undefined)
    throw usageError(`--variant ${raw}: "${bad}" is not KEY=VALUE; write it as --variant ${example}`);
  const env = pairs(settings, '--variant', example);
  if (name === 'default' && Object.keys(env).length)
    throw usageError(`--variant ${raw}: default is the variant that adds nothing; give it another name`);
  if (name !== 'default' && !Object.keys(env).length)
    throw usageError(`--variant ${raw} sets nothing; write it as --variant ${example}, or --variant default`);
  if ((previous ?? []).some((other) => other.name === name))
    throw usageError(`--variant ${name} is given twice; give each variant its own name`);
  return [...(previous ?? []), { name, env }];
}
