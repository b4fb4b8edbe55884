import { createRequire } from 'node:module';
import leven from 'leven';
import { MmapbenchError, usageError } from '../errors.js';
import { version } from '../version.js';
import { COMMANDS, nameOf } from './commands.js';
import { COMMON, declare, examplesText, flagName } from '../core/option-spec.js';
import { camel, kebab } from '../words/vocabulary.js';

const NAMES = COMMANDS.map(nameOf);

// yargs through require: its ES module entry wraps the same CommonJS build, which Node's loader
// then scans for its exports, a quarter of what --help takes (12 of 76 ms)
/** @type {typeof import('yargs/yargs')} */
const yargs = createRequire(import.meta.url)('yargs/yargs');

const TOP_EXAMPLES = [
  ['mmapbench compare', 'workers vs procs on the defaults: readfilesync of a 64 KiB file, k = CPUs'],
  ['mmapbench trace compare', 'the same, with the mmap_lock waits of both (root, bpftrace)'],
  ['mmapbench reproduce --list', "the investigation's published claims, and which run here"],
];

/** @typedef {import('./context.js').Context} Context */

/**
 * Builds the parser without running it, so tests parse arguments in-process. A parse error
 * becomes a one-line usage error naming the fix; the handlers' own errors pass through as they are.
 * Only the command run (`running`, loaded) declares its options; the others are names and
 * descriptions, which is all the top-level --help shows.
 * @param {string[]} args
 * @param {Context} [context]
 * @param {{ name: string, module: import('./commands.js').CommandModule } | null} [running]
 */
function buildYargs(args, context = {}, running = null) {
  const stdout = context.stdout ?? process.stdout;
  const parser = yargs(args)
    .scriptName('mmapbench')
    .usage(
      'Usage: mmapbench <command> [options]\n\nWorker threads vs child processes on allocation-heavy work: the ratio, with the kernel evidence.',
    )
    .version(version)
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .strict()
    .exitProcess(false)
    // the value each option takes is named in its description (<count>, <path>)
    .usageConfiguration({ 'hide-types': true })
    .wrap(Math.min(100, stdout.columns ?? 80))
    // every value as typed: a message quotes what the user wrote (1e9, not 1000000000)
    .parserConfiguration({
      'parse-numbers': false,
      'parse-positional-numbers': false,
      'strip-dashed': true,
      'populate--': true,
    });
  declare(parser, COMMON);
  for (const one of COMMANDS) {
    const module = running && running.name === nameOf(one) ? running.module : null;
    parser.command({
      command: one.command,
      describe: one.describe,
      builder: (y) => (module ? module.builder(y) : y),
      // what a handler returns (a document, for tests calling it directly) is not yargs' business
      handler: async (argv) => {
        if (!module) return;
        // the command's switches are declared once its builder has run
        refuseSwitchValues(
          args,
          /** @type {{ boolean: string[] }} */ (/** @type {unknown} */ (parser.getOptions())).boolean,
        );
        await module.handler(argv, { ...context, args });
      },
    });
  }
  return parser.fail((message, error) => {
    if (error instanceof MmapbenchError) throw error;
    throw usageError(`${parseProblem(error?.message ?? message, args, parser)}; see \`${helpCommand(args)}\``);
  });
}

/**
 * A switch given a word (`--k-auto=maybe`) is refused: yargs would read it as false.
 * @param {string[]} args
 * @param {string[]} switches  the names of the command's boolean options, as yargs holds them
 */
function refuseSwitchValues(args, switches) {
  const end = args.indexOf('--');
  for (const arg of end === -1 ? args : args.slice(0, end)) {
    const given = /^--(no-)?([^=]+)=(.*)$/s.exec(arg);
    if (!given || !(switches.includes(given[2]) || switches.includes(camel(given[2])))) continue;
    if (given[3] === 'true' || given[3] === 'false') continue;
    throw usageError(
      `--${given[1] ?? ''}${given[2]}=${given[3]} is invalid: --${given[2]} is a switch, on or off; write --${given[2]} or --no-${given[2]}`,
    );
  }
}

/** The help command for the command being parsed: `mmapbench compare --help`. */
const helpCommand = (/** @type {string[]} */ args) => {
  const name = args.find((arg) => NAMES.includes(arg));
  return `mmapbench ${name ? `${name} ` : ''}--help`;
};

/** The long options the command takes, as typed: `--iterations`, `--no-save`. */
const knownFlags = (/** @type {import('yargs').Argv} */ parser) =>
  Object.keys(parser.getOptions().key).flatMap((key) => {
    const flag = flagName(camel(key));
    return flag.startsWith('--') ? [flag, `--no-${flag.slice(2)}`] : [flag];
  });

/** The long options typed before `--`, without their values. */
const typedOptions = (/** @type {string[]} */ args) => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end))
    .filter((arg) => arg.startsWith('--') && arg.length > 2)
    .map((arg) => arg.split('=')[0]);
};

/**
 * An option the command does not take, with the nearest it does.
 * @param {string} typedName
 * @param {import('yargs').Argv} parser
 */
function unknownOption(typedName, parser) {
  const near = knownFlags(parser)
    .map((name) => ({ name, distance: leven(name, typedName) }))
    .filter(({ distance }) => distance <= 2)
    .sort((a, b) => a.distance - b.distance)[0];
  return `unknown option '${typedName}'${near ? ` (Did you mean ${near.name}?)` : ''}`;
}

/**
 * yargs' parse errors, said the way the rest of mmapbench says them.
 * @param {string} message
 * @param {string[]} args
 * @param {import('yargs').Argv} parser
 */
function parseProblem(message, args, parser) {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) {
    const names = unknown[1].split(', ');
    // strip-dashed leaves the camelCase spelling beside the typed one: report what was typed
    const typed = names.map(
      (name) =>
        args.find((arg) =>
          [`--${name}`, `--${kebab(name)}`, `--no-${kebab(name)}`, `-${name}`].some(
            (flag) => arg === flag || arg.startsWith(`${flag}=`),
          ),
        ) ?? name,
    );
    const option = typed.find((arg) => arg.startsWith('-'));
    if (option) return unknownOption(option.split('=')[0], parser);
    const name = args.find((arg) => NAMES.includes(arg));
    return `too many arguments for '${name}': ${typed.join(' ')}`;
  }
  const missingValue = /^Not enough arguments following: (.+)$/.exec(message);
  if (missingValue) return `${flagName(missingValue[1])} needs a value`;
  if (/^Not enough non-option arguments/.test(message)) {
    // `report --verbse F`: the misspelt flag took F as its value, so F seems missing
    const misspelt = typedOptions(args).find((flag) => !knownFlags(parser).includes(flag));
    if (misspelt) return unknownOption(misspelt, parser);
    const one = COMMANDS.find((command) => args.includes(nameOf(command)));
    return `missing arguments: it is \`mmapbench ${one?.command ?? '<command>'}\``;
  }
  return message.replace(/\n/g, ' ').replace(/\.$/, '');
}

/**
 * Parses and runs one command line; a parse error is a usage error naming the fix.
 * @param {string[]} args
 * @param {Context} [context]
 */
export async function run(args, context = {}) {
  const stdout = context.stdout ?? process.stdout;
  const first = args.find((arg) => !arg.startsWith('-'));
  const asksHelp = args.some((arg) => ['--help', '-h', '--version', '-V'].includes(arg));
  if (first === undefined && !asksHelp)
    throw usageError('no command given; run `mmapbench compare`, or see `mmapbench --help` for the list');
  if (first !== undefined && !NAMES.includes(first))
    throw usageError(`unknown command '${first}'; see \`mmapbench --help\``);
  // `-k=2` as `-k 2`: yargs reads `-k=` as -k and an argument `=`, so an empty value was
  // blamed on too many arguments; as two, it is refused as --node= is, naming the option
  const end = args.indexOf('--');
  args = args.flatMap((arg, i) => {
    const short = (end === -1 || i < end) && /^(-[A-Za-z])=(.*)$/s.exec(arg);
    return short ? [short[1], short[2]] : [arg];
  });
  // the command run, loaded: its options, its handler and what that runs
  const command = first === undefined ? undefined : COMMANDS.find((one) => nameOf(one) === first);
  const running = command ? { name: nameOf(command), module: await command.load() } : null;
  // --help and --version print here rather than through console.log, so they go where asked
  let printed = '';
  await buildYargs(args, context, running).parseAsync(args, {}, (_error, _argv, output) => {
    printed = output;
  });
  if (!printed) return;
  const lines = running ? running.module.examples : first === undefined ? TOP_EXAMPLES : null;
  stdout.write(`${printed}\n${lines && /^mmapbench|^Usage/.test(printed) ? examplesText(lines) : ''}`);
}

// what a task wrote or threw, as bin/ prints it with --verbose: its control characters escaped
export { escapeLines, escapeText } from '../escape.js';
