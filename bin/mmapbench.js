#!/usr/bin/env node
import { constants } from 'node:os';
import { hideBin } from 'yargs/helpers';
import { buildYargs } from '../src/cli/index.js';
import { EXIT_CODES, MmapbenchError } from '../src/errors.js';

const args = hideBin(process.argv);
const verbose = args.includes('--verbose');
const interrupt = new AbortController();

// First Ctrl-C: stop the cells and report what finished. Second: leave now.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(128 + constants.signals[signal]);
    interrupt.abort(signal);
  });
}

try {
  await buildYargs(args, { interrupt: interrupt.signal }).parseAsync();
} catch (error) {
  if (error instanceof MmapbenchError) {
    const signal = error.kind === 'interrupted' ? error.signal ?? 'SIGINT' : null;
    process.stderr.write(signal ? `mmapbench: interrupted by ${signal}; the results above are what finished\n` : `mmapbench: ${error.message}\n`);
    if (verbose && error.taskStack) process.stderr.write(`${error.taskStack}\n`);
    if (verbose && error.cause?.stack) process.stderr.write(`${error.cause.stack}\n`);
    process.exitCode = signal ? 128 + constants.signals[signal] : error.exitCode;
  } else {
    process.stderr.write(verbose ? `${error.stack}\n` : `mmapbench: internal error: ${error.message} (run with --verbose for the stack)\n`);
    process.exitCode = EXIT_CODES.run;
  }
}
