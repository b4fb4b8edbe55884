// How an option is declared and read: a value, a repeated value or a flag, the placeholder its
// help shows, how yargs is told of it, how what was typed is checked and converted once, and
// the type the API takes it as (OptionsOf: made by TypeScript from the same declarations).
import leven from 'leven';
import { usageError } from '../errors.js';
import { kebab } from '../words/vocabulary.js';
import { refusal } from '../saved/validate.js';

/**
 * One option. A value option takes one value (given twice, it is refused); a repeated one keeps
 * every value, in order; a flag is a switch (`--no-save` for `save`).
 * @typedef {object} OptionSpec
 * @property {string} describe
 * @property {'value'|'repeat'|'flag'} [kind]  default: value
 * @property {string} [takes]  what a value option takes, as its help shows it (`count`,
 *   `seconds`, `bytes`, `KEY=VALUE`: by InputOf, as the API takes it too); every one but a flag has one
 * @property {(value: any) => any} [read]  checks and converts what was typed; a usage error
 *   names the option as typed
 * @property {readonly string[]} [choices]
 * @property {boolean} [list]  a comma-separated list (sweep's axes), as its help says
 * @property {readonly string[]} [conflicts]  options that may not be given with it
 * @property {boolean} [hidden]
 * @property {readonly Tag[]} [tags]  what else the code asks of it (Tag)
 * @property {unknown} [default]  its value where it is not given, where the code reads it here
 * @property {string} [cli]  the command line's alone: why the API refuses it (the API's types
 *   leave it out)
 */

/**
 * What an option is, beyond how it is typed and read, for the code that asks:
 * - `resume`: it may be given with --resume (how to print, save, export and gate; --force; what
 *   the file names to run, load or write in, given again as the user's word that it may)
 * - `kept`: a kept run's options keep it as typed, checked and read again as the command line
 *   reads it (typed-options.js, keptOptions)
 * - `again`: it names a program or a folder that a results file may not choose on its own: a
 *   resumed run uses the file's only where it is given again
 * - `audit`: `trace --pid` and `trace -- COMMAND` take it
 * - `axis`: a sweep's axis, a list of values
 * @typedef {'resume'|'kept'|'again'|'audit'|'axis'} Tag
 */

/** @typedef {Record<string, OptionSpec>} Specs  by name as the code reads it (camelCase) */

/**
 * What the API takes for a placeholder, where it is more than a string: a number, or what the
 * command line would read (a size, a percentage, `steady`), or an object of NAME: value.
 * @typedef {{ count: number, seconds: number, ms: number, MiB: number, ratio: number, pid: number,
 *   bytes: number | `${number}${'k' | 'm' | 'g' | 'K' | 'M' | 'G'}`, percent: number | `${number}%`,
 *   'count|steady': number | 'steady', 'KEY=VALUE': Record<string, string | number> }} InputOf
 */

/**
 * One option's type in an options object: a switch a boolean; a value one of its choices, or
 * what it takes (InputOf), else a string; a repeated value or a sweep's axis that or a list of
 * it (env and param: an object).
 * @template S
 * @typedef {S extends { kind: 'flag' } ? boolean
 *   : Many<S, S extends { choices: readonly (infer C)[] } ? C
 *     : S extends { takes: infer T } ? T extends keyof InputOf ? InputOf[T] : string
 *     : string>} InputType
 */
/**
 * @template S
 * @template T
 * @typedef {[T] extends [Record<string, unknown>] ? T
 *   : S extends { kind: 'repeat' } | { list: true } ? T | T[] : T} Many
 */

/**
 * A command's options as the API takes them, from its specs: every option but the hidden ones
 * and the command line's own (`cli`), each optional.
 * @template S
 * @typedef {{ [N in keyof S as S[N] extends { hidden: true } | { cli: string } ? never : N]?:
 *   InputType<S[N]> }} OptionsOf
 */

/**
 * The names of the options in `specs` that carry `tag`, in the table's order.
 * @param {Specs} specs
 * @param {Tag} tag
 */
export const tagged = (specs, tag) => Object.keys(specs).filter((name) => specs[name].tags?.includes(tag));

/** How an option is typed on the command line. */
export const flagName = (/** @type {string} */ name) => (name.length === 1 ? `-${name}` : `--${kebab(name)}`);

// Each keeps what it is given as written (its choices, `list: true`), for OptionsOf to read.
/** @typedef {Omit<OptionSpec, 'describe' | 'kind'>} More */
/** @template {More} const M @param {string} describe @param {M} [more] @returns {Omit<{ describe: string, kind: 'value' }, keyof M> & M} */
export const value = (describe, more) => ({
  describe,
  kind: /** @type {const} */ ('value'),
  .../** @type {M} */ (more),
});
/** @template {More} const M @param {string} describe @param {M} [more] @returns {Omit<{ describe: string, kind: 'repeat' }, keyof M> & M} */
export const repeat = (describe, more) => ({
  describe,
  kind: /** @type {const} */ ('repeat'),
  .../** @type {M} */ (more),
});
/** @template {More} const M @param {string} describe @param {M} [more] @returns {Omit<{ describe: string, kind: 'flag' }, keyof M> & M} */
export const flag = (describe, more) => ({ describe, kind: /** @type {const} */ ('flag'), .../** @type {M} */ (more) });
/** @param {(name: string) => (raw: any) => unknown} check */
export const checked = (check) => (/** @type {string} */ name) => ({ read: check(flagName(name)) });

/**
 * A value that must be one of `choices`.
 * @param {string} name
 * @param {readonly string[]} choices
 */
const oneOf = (name, choices) => (/** @type {string} */ typed) => {
  if (!choices.includes(typed))
    throw usageError(`${name} ${typed} is invalid: it must be one of ${choices.join(', ')}`);
  return typed;
};

/**
 * Declares the options to yargs, for parsing and --help. Every value is parsed as typed (a
 * string), never as a number, so a message can quote exactly what the user wrote.
 * @param {import('yargs').Argv} yargs
 * @param {Specs} specs
 */
export function declare(yargs, specs) {
  for (const [name, spec] of Object.entries(specs)) {
    const kind = spec.kind ?? 'value';
    if (kind !== 'flag' && !spec.takes) throw new Error(`--${kebab(name)} does not say what it takes`);
    const takes = kind === 'flag' ? '' : `<${spec.takes}${spec.list ? ',...' : ''}> `;
    // the choices, unless the description already names each
    const named = spec.choices?.every((choice) => spec.describe.includes(choice)) ?? true;
    yargs.option(kebab(name), {
      describe: takes + spec.describe + (named ? '' : ` (${spec.choices?.join(', ')})`),
      type: kind === 'flag' ? 'boolean' : 'string',
      requiresArg: kind !== 'flag',
      hidden: spec.hidden,
    });
  }
  return yargs;
}

/**
 * The options the user gave, checked and converted once: an option given with one it conflicts
 * with, a value not among its choices or one its check refuses is a one-line usage error.
 * @param {Record<string, any>} argv  yargs' parsed arguments
 * @param {Specs} specs
 * @param {string} command  for the message's `see mmapbench COMMAND --help`
 * @returns {Record<string, any>}  only the options given, by name
 */
export function readOptions(argv, specs, command) {
  const given = Object.keys(specs).filter((name) => argv[name] !== undefined);
  /** @type {Record<string, unknown>} */
  const typed = {};
  for (const name of given) {
    const raw = argv[name];
    const kind = specs[name].kind ?? 'value';
    // a value given twice (`-k 2 -k 3`) would silently be the last: which one was meant is the user's
    if (kind === 'value' && !specs[name].list && Array.isArray(raw) && raw.length > 1)
      throw usageError(
        `${shownFlag(argv, name)} is given ${raw.length} times (${raw.join(', ')}); give it once; see \`mmapbench ${command} --help\``,
      );
    // an empty value (`--out ''`, a variable that was not set) is never the default
    if (kind !== 'flag' && [raw].flat().some((item) => String(item) === ''))
      throw usageError(
        `${shownFlag(argv, name)} is given an empty value; give it a <${specs[name].takes ?? 'value'}>, or leave it out for the default`,
      );
    typed[name] = kind === 'repeat' ? [raw].flat().map(String) : kind === 'flag' ? raw : [raw].flat().at(-1);
  }
  return readGiven(typed, specs, command, (name) => shownFlag(argv, name));
}

/** An option as the user typed it: `--no-save` for a save switched off. */
const shownFlag = (/** @type {Record<string, any>} */ argv, /** @type {string} */ name) =>
  name === 'save' && argv.save === false ? '--no-save' : flagName(name);

/**
 * The options given, by name (what the command line typed, or the API's values), each checked
 * and converted once by its spec; an option given with one it conflicts with is a usage error.
 * @param {Record<string, unknown>} given  only the options given
 * @param {Specs} specs
 * @param {string} command
 * @param {(name: string) => string} typed  how a message names an option
 * @returns {Record<string, any>}
 */
function readGiven(given, specs, command, typed) {
  for (const name of Object.keys(given))
    for (const other of specs[name].conflicts ?? [])
      if (Object.hasOwn(given, other))
        throw usageError(`${typed(name)} cannot be used with ${typed(other)}; see \`mmapbench ${command} --help\``);
  return Object.fromEntries(
    Object.entries(given).map(([name, raw]) => [
      name,
      readValue(name, specs[name], specs[name].kind === 'repeat' ? [raw].flat() : raw),
    ]),
  );
}

/**
 * One option's value checked and converted, as the command line reads what was typed: among its
 * choices, then its own check. A kept run's settings (--resume) are read through it too.
 * @param {string} name
 * @param {OptionSpec} spec
 * @param {unknown} value
 */
export function readValue(name, spec, value) {
  const read = spec.choices ? oneOf(flagName(name), spec.choices)(/** @type {string} */ (value)) : value;
  return spec.read ? spec.read(read) : read;
}

/** Examples shown under a command's help: one per line, never wrapped mid-command. */
export const examplesText = (/** @type {string[][]} */ lines) =>
  `\nExamples:\n${lines.map(([cmd, what]) => `  $ ${cmd}\n      ${what}`).join('\n')}\n`;

/**
 * What the API takes for one option, as JSON Schema: a switch a boolean; `env` and `param` an
 * object of NAME: value; a value one of its choices, or what its placeholder takes (a number
 * alone where the command line takes a number: `{ k: '2' }` is refused); a repeated value or a
 * sweep's axis that or a list of it. The option's own check then reads it as it reads what was
 * typed (its range, a size's or a percentage's text).
 * @param {string} name
 * @param {OptionSpec} spec
 */
export function apiSchema(name, spec) {
  const kind = spec.kind ?? 'value';
  if (kind === 'flag') return { type: 'boolean' };
  if (name === 'env' || name === 'param')
    return { type: 'object', additionalProperties: { type: ['string', 'number'] } };
  const takes = spec.takes ?? 'value';
  const one = spec.choices
    ? { enum: [...spec.choices] }
    : NUMBERS.includes(takes)
      ? { type: 'number' }
      : takes === 'count|steady'
        ? { anyOf: [{ type: 'number' }, { const: 'steady' }] }
        : { type: takes === 'bytes' || takes === 'percent' ? ['number', 'string'] : 'string' };
  return kind === 'repeat' || spec.list ? { anyOf: [one, { type: 'array', items: one }] } : one;
}

// What the API takes as a number alone (InputOf), as tsc does.
const NUMBERS = ['count', 'seconds', 'ms', 'MiB', 'ratio', 'pid'];

/** @type {WeakMap<Specs, Record<string, any>>} each command's options as one JSON Schema */
const schemas = new WeakMap();

/**
 * An options object (the API's: `{ maxTime: 10, env: { A: 1 }, k: [1, 2] }`) checked against its
 * command's schema (apiSchema of each option, by TypeBox's checker: the first field refused is
 * named), then read as readOptions reads the command line, so the API refuses what the CLI
 * refuses, with the same words.
 * @param {Record<string, unknown>} given
 * @param {Specs} specs
 * @param {string} command
 * @returns {Record<string, any>}
 */
export function readObject(given, specs, command) {
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw usageError(`the options must be an object, as { k: 2 }; see docs/api.md`);
  const named = Object.entries(given).filter(([, raw]) => raw !== undefined);
  for (const [name, raw] of named) {
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec || spec.hidden) {
      const near =
        name.length > 2 && Object.keys(specs).find((known) => !specs[known].hidden && leven(known, name) <= 2);
      throw usageError(
        `${command} has no option '${name}'${near ? ` (did you mean ${near}?)` : ''}; see docs/api.md for its options`,
      );
    }
    if (Array.isArray(raw) && !raw.length)
      throw usageError(`${name} is an empty list: give it one value or more, or leave it out for the default`);
    // what JSON cannot hold (a BigInt, a function) and what no path or value may (a NUL), named
    // before the schema's check, which would stumble on the one and pass the other on
    const values = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.values(raw) : [raw];
    const odd = values.find((value) => ['bigint', 'symbol', 'function'].includes(typeof value));
    if (odd !== undefined)
      throw usageError(`${name} must be a number, a text or a list of them (it is a ${typeof odd}); see docs/api.md`);
    if (values.some((value) => typeof value === 'string' && value.includes('\0')))
      throw usageError(`${name} holds a NUL character (\\0), which no path or value may; see docs/api.md`);
  }
  let schema = schemas.get(specs);
  if (!schema) {
    const properties = Object.entries(specs).map(([name, spec]) => [name, apiSchema(name, spec)]);
    schema = { type: 'object', properties: Object.fromEntries(properties) };
    schemas.set(specs, schema);
  }
  const wrong = refusal(schema, '#', Object.fromEntries(named));
  if (wrong) throw usageError(`${wrong}; see docs/api.md`);
  // the values as they are: each option's own check reads a number, a list or an object of
  // NAME: value as it reads what was typed
  return readGiven(Object.fromEntries(named), specs, command, (name) =>
    name === 'save' && given.save === false ? '--no-save' : flagName(name),
  );
}

// What the CLI declares before it knows which command runs (`mmapbench --help` loads this file
// alone of the options): the option every command takes, and the names of compare's own, for
// the error that says which command takes one.

// why the API refuses what only says how the command line prints: a function returns the document
export const RETURNED = 'the API returns the document';
export const PRINTED = `${RETURNED} (report() prints one)`;

export const COMMON = {
  verbose: flag(
    'the whole text: every round, the account, the warm-up and the sizing after the answer; stack traces and task output on failure',
    { tags: ['resume', 'audit'], cli: PRINTED },
  ),
};
