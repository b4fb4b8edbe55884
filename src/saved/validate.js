// A saved document is data a person may have edited: before any reader computes from it, it is
// checked against results.schema.json (the fields docs/json.md describes that figures are
// computed from), so a throughput of "fast", -5 or null is refused by name instead of read as
// NaN. The schema is compiled (TypeBox's checker) on the first file read, never by a run that
// only measures.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { usageError } from '../errors.js';
import { plural } from '../words/spelling.js';
import { escapeText } from '../escape.js';

/**
 * The error for a file a reader refuses by a field: the file as the command names it
 * (`report a.json`), the field and its rule.
 * @param {string} what
 * @param {string} bad  from firstBadField
 */
export const changedFile = (what, bad) =>
  usageError(
    `${what}: ${bad}; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/saved/results.schema.json)`,
  );

/** @type {Record<string, any> | undefined} */
let resultsSchema;
/** @type {WeakMap<object, Map<string, import('typebox/schema').Validator>>} */
const validators = new WeakMap();

/**
 * The check of the part of `root` at `pointer` (`#`, `#/definitions/reproduceRecord`), compiled
 * on first use with the root's definitions beside it.
 * @param {Record<string, any>} root
 * @param {string} pointer
 * @returns {import('typebox/schema').Validator}
 */
const compiled = (root, pointer) => {
  const known = validators.get(root) ?? new Map();
  validators.set(root, known);
  let validator = known.get(pointer);
  if (!validator) {
    const part = pointer
      .split('/')
      .slice(1)
      .map(unescape)
      // through a $ref, where the path goes on inside the definition it names
      .reduce((/** @type {any} */ at, step) => at[step] ?? follow(root, at.$ref)?.[step], root);
    // loaded here, on the first check: a run that only measures never pays for it
    const { Compile } = /** @type {typeof import('typebox/schema')} */ (
      createRequire(import.meta.url)('typebox/schema')
    );
    validator = Compile({ definitions: root.definitions, ...part });
    known.set(pointer, validator);
  }
  return validator;
};

/**
 * The definition a `$ref` names (`#/definitions/cell`), or undefined without one.
 * @param {Record<string, any>} root
 * @param {string | undefined} ref
 */
const follow = (root, ref) =>
  ref
    ? ref
        .split('/')
        .slice(1)
        .map(unescape)
        .reduce((at, step) => at?.[step], root)
    : undefined;

/**
 * The first field of `document` the schema refuses, in words (`rounds[3].workers.throughput
 * must be a number >= 0 (it is "fast")`), or null when it has none.
 * @param {unknown} document
 * @param {string} [definition]  the schema's definition it is, when it is not a whole document
 *   (`reproduceRecord`, a line of a reproduce run's results file)
 * @returns {string | null}
 */
export function firstBadField(document, definition) {
  const long = longString(document);
  if (long)
    return `${long.field} is ${long.length} characters long; mmapbench saves at most ${MAX_STRING_CHARS} in a field`;
  return refusal(schema(), definition ? `#/definitions/${definition}` : '#', document);
}

/** results.schema.json, read once. @returns {Record<string, any>} */
const schema = () =>
  (resultsSchema ??= JSON.parse(readFileSync(new URL('./results.schema.json', import.meta.url), 'utf8')));

/**
 * One definition of results.schema.json (`reproduceOptions`): what a reader that checks a part of
 * a file (its names, its choices) takes from the one schema.
 * @param {string} name
 * @returns {Record<string, any>}
 */
export const definitionOf = (name) => schema().definitions[name];

/**
 * The first field of `value` that the JSON Schema `root` (at `pointer`) refuses, in words, or
 * null: what a results file and the API's options object are checked by.
 * @param {Record<string, any>} root
 * @param {string} pointer
 * @param {unknown} value
 * @param {string} [name]  the field `value` is, where it is not a whole document
 * @returns {string | null}
 */
export function refusal(root, pointer, value, name = '') {
  const error = deepestError(root, pointer, value, '');
  if (!error) return null;
  const steps = error.instancePath.split('/').slice(1).map(unescape);
  const field = steps.reduce(
    (path, step) => (/^\d+$/.test(step) ? `${path}[${step}]` : path ? `${path}.${step}` : step),
    name,
  );
  if (error.keyword === 'required') {
    const missing = /** @type {{ requiredProperties: string[] }} */ (error.params).requiredProperties;
    const present = steps.reduce((/** @type {any} */ at, step) => at?.[step], value) ?? {};
    return `${field ? `${field}.` : ''}${missing.find((key) => !(key in present)) ?? missing[0]} is missing`;
  }
  const at = steps.reduce((/** @type {any} */ node, step) => node?.[step], value);
  return `${field || 'the document'} ${rule(error)} (it is ${quoted(at)})`;
}

/**
 * A checker's error, or several alternatives of an anyOf as one (keyword anyOf, params.alternatives).
 * @typedef {{ keyword: string, instancePath: string, schemaPath: string, params: Record<string, any>, message?: string }} Refused
 */

/**
 * The deepest error the schema at `pointer` finds in `value`, with its path from the document's
 * root: a failed if/then is checked again against its `then`, whose error names the field (the
 * checker stops at the `if`); an anyOf's branches (null, or a number) say less than the field's
 * own rule.
 * @param {Record<string, any>} root
 * @param {string} pointer
 * @param {unknown} value
 * @param {string} at  the path of `value` in the document
 * @returns {Refused | null}
 */
function deepestError(root, pointer, value, at) {
  const [ok, errors] = compiled(root, pointer).Errors(value);
  if (ok || !errors.length) return null;
  const telling = errors.filter(
    (error) =>
      error.keyword !== 'anyOf' &&
      !(error.keyword === 'type' && error.params.type === 'null') &&
      // a key's own error: the object's propertyNames error names the key
      !error.schemaPath.endsWith('/propertyNames'),
  );
  const deepest = (telling.length ? telling : errors).reduce((deepest, candidate) =>
    candidate.instancePath.length > deepest.instancePath.length ? candidate : deepest,
  );
  // an anyOf of plain alternatives (a number, or steady) says them all: `must be a number or steady`
  const plain = (/** @type {{ keyword: string }} */ e) => e.keyword === 'type' || e.keyword === 'const';
  const alternatives = telling.filter((e) => e.instancePath === deepest.instancePath && plain(e));
  const error =
    plain(deepest) && alternatives.length > 1 ? { ...deepest, keyword: 'anyOf', params: { alternatives } } : deepest;
  if (error.keyword === 'if') {
    const part = error.instancePath.split('/').slice(1).map(unescape);
    const inner = part.reduce((/** @type {any} */ node, step) => node?.[step], value);
    const then = `${pointer}${error.schemaPath.slice(1)}/then`;
    return (
      deepestError(root, then, inner, at + error.instancePath) ?? { ...error, instancePath: at + error.instancePath }
    );
  }
  return { ...error, instancePath: at + error.instancePath };
}

/** The most an error quotes of a value: a line a person can read. */
const QUOTE_CHARS = 60;

/**
 * A value as an error quotes it: short, whatever it is (an array of millions, a string of
 * megabytes), and never by walking it whole.
 * @param {unknown} value
 */
export function quoted(value) {
  if (Array.isArray(value)) return value.length ? `an array of ${plural(value.length, 'item')}` : '[]';
  if (value && typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/**
 * The most a saved file nests: a document mmapbench writes nests about ten deep; a reader (and
 * the schema's check) walks a value recursively, which a value nested thousands deep overflows.
 */
export const MAX_DEPTH = 64;

/**
 * Whether `value` nests deeper than `max` (arrays and objects), found without recursion.
 * @param {unknown} value
 * @param {number} [max]
 */
export function nestsDeeperThan(value, max = MAX_DEPTH) {
  /** @type {Array<[unknown, number]>} */
  const stack = [[value, 0]];
  while (stack.length) {
    const [at, depth] = /** @type {[unknown, number]} */ (stack.pop());
    if (!at || typeof at !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(at)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The most characters a string of a saved file holds: the longest mmapbench writes (a sentence,
 * a path, an error) is a few hundred. A longer one is refused before a view wraps it, which
 * costs time in the square of its length.
 */
export const MAX_STRING_CHARS = 16384;

/**
 * The first string of `value` longer than `max`, with where it is, found in one pass without
 * recursion.
 * @param {unknown} value
 * @returns {{ field: string, length: number } | null}
 */
export function longString(value, max = MAX_STRING_CHARS) {
  /** @type {Array<[unknown, string]>} */
  const stack = [[value, '']];
  while (stack.length) {
    const [at, field] = /** @type {[unknown, string]} */ (stack.pop());
    if (typeof at === 'string') {
      if (at.length > max) return { field: field || 'the document', length: at.length };
      continue;
    }
    if (!at || typeof at !== 'object') continue;
    for (const [key, child] of Object.entries(at)) {
      const name = Array.isArray(at) ? `${field}[${key}]` : field ? `${field}.${key}` : key;
      if (key.length > max) return { field: `a key of ${field || 'the document'}`, length: key.length };
      if (child && (typeof child === 'object' || typeof child === 'string')) stack.push([child, name]);
    }
  }
  return null;
}

/**
 * A loaded document with every control character of its strings and keys shown escaped (`\n`,
 * `\u001b`), as JSON writes them: what a file says is printed, never obeyed by the terminal.
 * Itself when it has none.
 * @template T
 * @param {T} value  a document of at most MAX_DEPTH levels (checked before)
 * @returns {T}
 */
export function printable(value) {
  if (typeof value === 'string') return /** @type {T} */ (escapeText(value));
  if (!value || typeof value !== 'object') return value;
  // a copy only where something changed: a clean document is returned as it is
  const entries = Object.entries(value);
  const shown = entries.map(([key, child]) => [printable(key), printable(child)]);
  if (shown.every(([key, child], i) => key === entries[i][0] && child === entries[i][1])) return value;
  return /** @type {T} */ (Array.isArray(value) ? shown.map(([, child]) => child) : Object.fromEntries(shown));
}

/** @param {string} step  a JSON Pointer step */
const unescape = (step) => step.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The rule a checker's error states, in words.
 * @param {Refused} error
 */
function rule({ keyword, params, message }) {
  const p = /** @type {Record<string, any>} */ (params);
  const article = (/** @type {string} */ type) =>
    type === 'integer' ? 'a whole number' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  if (keyword === 'type') return `must be ${[p.type].flat().map(article).join(' or ')}`;
  if (keyword === 'anyOf' && p.alternatives)
    // each said once: two branches of one type (an object of either shape) are one word
    return `must be ${[...new Set(p.alternatives.map((/** @type {Refused} */ alternative) => rule(alternative).replace(/^must be /, '')))].join(' or ')}`;
  if (keyword === 'minimum') return `must be a number >= ${p.limit}`;
  if (keyword === 'exclusiveMinimum') return `must be a number > ${p.limit}`;
  if (keyword === 'enum') return `must be one of ${p.allowedValues.join(', ')}`;
  if (keyword === 'const') return `must be ${p.allowedValue}`;
  if (keyword === 'minItems') return `must hold at least ${plural(p.limit, 'item')}`;
  if (keyword === 'maxItems') return `must hold at most ${plural(p.limit, 'item')}`;
  if (keyword === 'minLength') return `must hold at least ${plural(p.limit, 'character')}`;
  if (keyword === 'pattern') return 'holds a character mmapbench never saves there';
  if (keyword === 'propertyNames')
    return `holds a name mmapbench never saves (${p.propertyNames.map(quoted).join(', ')})`;
  return message ?? 'is not as mmapbench saves it';
}
