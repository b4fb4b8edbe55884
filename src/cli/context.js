// What a command of the CLI runs with besides its options, and what a command's module exports,
// kept apart from the parser (index.js, commands.js), so a command module names them without
// importing the parser.

/**
 * What a command runs with besides its options: Ctrl-C, and where it writes (tests pass streams).
 * @typedef {object} Context
 * @property {AbortSignal} [interrupt]  aborted on the first SIGINT/SIGTERM/SIGHUP
 * @property {NodeJS.WritableStream & { columns?: number, isTTY?: boolean }} [stdout]
 * @property {NodeJS.WritableStream & { columns?: number, isTTY?: boolean }} [stderr]
 * @property {string[]} [args]  the command line as given: where `--` was, which parsed
 *   arguments no longer say
 */

/**
 * A command's yargs module (src/cli/NAME.js).
 * @typedef {object} CommandModule
 * @property {(yargs: import('yargs').Argv) => import('yargs').Argv} builder  its options
 * @property {(argv: any, context: Context & { args: string[] }) => unknown} handler
 * @property {string[][]} [examples]
 */

export {};
