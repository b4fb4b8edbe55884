import cliProgress from 'cli-progress';
import { about } from '../document/sentences.js';

// Off a terminal (CI logs, a pipe) a line now and then instead of a bar.
const LINE_EVERY_MS = 10_000;
// Runs shorter than this get neither: a quick run should print nothing on stderr.
const QUIET_BELOW_SECONDS = 10;

/**
 * Progress on stderr for runs long enough to want it: first one line with the expected time,
 * then a bar on a terminal (cells done of all, what ran last, the ETA) or, off a terminal, a
 * short line about every 10 s.
 * @param {{ cells: number, expectedSeconds: number, budgetSeconds?: number, stream?: NodeJS.WritableStream & { isTTY?: boolean } }} options
 *   budgetSeconds: a run that stops on a budget (or sooner, once it decides): off a terminal its
 *   lines give what remains of the budget, the one bound known
 * @returns {{ tick(payload: { label: string }): void, grow(cells: number): void, stop(): void }}
 */
export function startProgress({ cells, expectedSeconds, budgetSeconds = Infinity, stream = process.stderr }) {
  if (expectedSeconds < QUIET_BELOW_SECONDS) return { tick() {}, grow() {}, stop() {} };
  stream.write(`mmapbench: ${cells} cells, about ${about(expectedSeconds)}; Ctrl-C stops and prints what finished\n`);
  let total = cells;
  if (!stream.isTTY) {
    let done = 0;
    const started = Date.now();
    let last = started;
    let firstCell = null; // the rate is taken from the cells alone, not the calibrations before them
    return {
      tick({ label }) {
        done++;
        firstCell ??= Date.now();
        if (Date.now() - last < LINE_EVERY_MS || done < 2) return;
        last = Date.now();
        // a run on a budget goes on until it decides or the budget ends: only the bound is known
        if (Number.isFinite(budgetSeconds)) {
          const left = Math.max(0, budgetSeconds * 1000 - (Date.now() - started));
          stream.write(`mmapbench: ${done} cells (${label}), at most ${about(left / 1000)} left\n`);
          return;
        }
        if (done >= total) {
          stream.write(`mmapbench: ${done} cells (${label})\n`);
          return;
        }
        const perCell = (Date.now() - firstCell) / (done - 1);
        stream.write(
          `mmapbench: ${done}/${total} cells (${label}), about ${about((perCell * (total - done)) / 1000)} left\n`,
        );
      },
      grow: (more) => {
        total += more;
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'cells {bar} {value}/{total} | {label} | ETA {eta_formatted}',
      clearOnComplete: true,
      hideCursor: true,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { label: 'starting' });
  let done = 0;
  return {
    // past the estimate the bar stays full, counting on
    tick: (payload) => {
      if (++done > total) bar.setTotal((total = done));
      bar.increment(payload);
    },
    // an adaptive run adds a round when its claims are still undecided
    grow: (more) => bar.setTotal((total += more)),
    stop: () => bar.stop(),
  };
}
