import cliProgress from 'cli-progress';

/**
 * A progress bar on stderr, only on a terminal and only for runs long enough to want one.
 * Returns the callback the session calls after each cell.
 */
export function startProgress({ cells, expectedSeconds, stream = process.stderr }) {
  if (!stream.isTTY || expectedSeconds < 2) return { tick() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { stream, format: 'cells {bar} {value}/{total} | round {round} {mode} | ETA {eta_formatted}', clearOnComplete: true, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(cells, 0, { round: 1, mode: '' });
  return {
    tick: (round, mode) => bar.increment({ round: round.index, mode }),
    stop: () => bar.stop(),
  };
}
