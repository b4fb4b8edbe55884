import { dirname } from 'node:path';
import { textWidth } from '../../view/table.js';
import { resultsFolder, shown } from '../../saved/save.js';
import { listing } from './list.js';
import { machine, select } from './machine.js';
import { requestedOptions, resumeFlags } from './options.js';
import { renderModels } from '../../view/index.js';
import { reproduceAnswer } from './models.js';
import { commandLine } from '../../words/command-line.js';
import { measureReproduce } from './run.js';
import { terminalReporter } from '../../cli/terminal.js';

/**
 * `mmapbench reproduce`: the experiments' rounds, the results file saved after every round, then
 * REPORT.md; or, with `resume`, the cells that file is missing.
 * @param {import('./options.js').ReproduceRequest} request  what the command line asked for, read
 * @param {import('../../cli/context.js').Context} [context]
 */
export async function reproduce(request, { interrupt, stdout = process.stdout, stderr = process.stderr } = {}) {
  const { options, resumed } = await requestedOptions(request);
  // a folder (not a link to one, as compare's --out) this user can write, before anything is installed
  const out = request.list
    ? ''
    : resultsFolder(request.out ?? (request.resume ? dirname(request.resume) : 'mmapbench-reproduce'));
  const ctx = await machine(options, request, interrupt, {
    install: !request.list,
    say: (line) => void stderr.write(`mmapbench: ${line}\n`),
  });
  if (request.list) {
    stdout.write(
      listing(ctx, options, { width: textWidth(stdout), markdown: request.markdown, names: request.experiments }),
    );
    return;
  }
  const { runnable, skipped } = select(options, ctx);

  const kept = await measureReproduce(
    { exports: request.export ?? [], options, ctx, runnable, skipped, resumed, out },
    { interrupt, reporter: terminalReporter(stderr) },
  );
  // as `report` prints its file: the verdicts, or with --verbose the whole report
  const models = request.verbose ? kept.models : reproduceAnswer(kept.models);
  stdout.write(renderModels(null, () => models, request.markdown ? 'markdown' : 'terminal', stdout));
  if ('path' in kept.report)
    stderr.write(`mmapbench: wrote ${shown(kept.report.path)}; raw results in ${shown(kept.file)}\n`);
  else
    stderr.write(
      `mmapbench: ${kept.report.error.message}; the report is the one printed above, raw results in ${kept.file}\n`,
    );
  const error = kept.error ?? ('error' in kept.report ? kept.report.error : null);
  if (error) {
    stderr.write(
      `mmapbench: to finish the run: ${commandLine(['mmapbench', 'reproduce', '--resume', kept.file, ...resumeFlags(options)])}\n`,
    );
    throw error;
  }
  for (const written of kept.exported) stderr.write(`mmapbench: exported ${shown(written)}\n`);
}
