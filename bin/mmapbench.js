#!/usr/bin/env node
import { constants } from 'node:os';
import { escapeLines, escapeText, run } from '../src/cli/index.js';
import { EXIT_CODES, MmapbenchError } from '../src/errors.js';
import { killChildren } from '../src/system/children.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const interrupt = new AbortController();
const exitCodeOf = (signal) => 128 + constants.signals[signal];

// One Ctrl-C reaches the CLI more than once: a terminal signals the whole process group, and
// `timeout -s INT` or a supervisor may repeat it within milliseconds. Only a second press after
// this long means "stop harder".
const REPEAT_MS = 300;
// After a second press the cells are SIGKILLed and what finished is printed; if that still
// has not happened by then, leave anyway.
const LAST_CHANCE_MS = 5000;

// A reader that stops early (`mmapbench report ... | head -1`) closes the pipe: as Unix tools
// do, write nothing more there and finish as if it had read all (a run's results are saved
// whatever happens to its output).
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });

let firstAt = 0;
let done = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (!interrupt.signal.aborted) {
      firstAt = Date.now();
      interrupt.abort(signal); // stop the cells; the command reports what finished
      return;
    }
    if (Date.now() - firstAt < REPEAT_MS) return;
    process.stderr.write(`mmapbench: ${signal} again: killing the cells now\n`);
    killChildren('SIGKILL');
    setTimeout(() => {
      done = true;
      process.exit(exitCodeOf(interrupt.signal.reason));
    }, LAST_CHANCE_MS).unref();
  });
}

// Whatever the way out, no process this CLI started is left running; and a command that did
// not finish never exits 0. (No task code runs in this process: a task module loads in a child.)
process.on('exit', (code) => {
  killChildren('SIGKILL');
  if (done) return;
  process.stderr.write(
    `mmapbench: internal error: exited before the command finished (exit code ${code}); please report it with the command line\n`,
  );
  if (!code) process.exitCode = EXIT_CODES.run;
});

try {
  await run(args, { interrupt: interrupt.signal });
} catch (error) {
  // a fault of mmapbench's own is said as one even after Ctrl-C, never hidden as the interrupt
  const fault =
    !(error instanceof MmapbenchError) && [TypeError, ReferenceError, RangeError].some((type) => error instanceof type);
  if (!fault && (error instanceof MmapbenchError || interrupt.signal.aborted)) {
    // After Ctrl-C, whatever failed next (a check cut short, a cell stopped) is the interrupt.
    const signal =
      error.kind === 'interrupted' || interrupt.signal.aborted
        ? (error.signal ?? interrupt.signal.reason ?? 'SIGINT')
        : null;
    process.stderr.write(
      signal
        ? `mmapbench: interrupted by ${signal}; the results above are what finished\n`
        : `mmapbench: ${error.message}\n`,
    );
    // what a task wrote or threw, line by line, its control characters escaped as the one line's
    if (verbose && error.taskStack) process.stderr.write(`${escapeLines(error.taskStack)}\n`);
    if (verbose && error.taskOutput) process.stderr.write(`${escapeLines(error.taskOutput)}\n`);
    if (verbose && error.cause?.stack) process.stderr.write(`${escapeLines(error.cause.stack)}\n`);
    process.exitCode = signal ? exitCodeOf(signal) : error.exitCode;
  } else {
    process.stderr.write(
      verbose
        ? `${escapeLines(error.stack)}\n`
        : `mmapbench: internal error: ${escapeText(error.message)} (run with --verbose for the stack)\n`,
    );
    process.exitCode = EXIT_CODES.run;
  }
} finally {
  done = true;
}
