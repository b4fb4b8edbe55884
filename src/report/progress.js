import cliProgress from 'cli-progress';

/**
 * A progress bar on stderr, only on a terminal and only for runs long enough to want one:
 * cells done of all, what ran last, and the ETA from the rate so far.
 * @returns {{ tick(payload: { label: string }): void, grow(cells: number): void, stop(): void }}
 */
export function startProgress({ cells, expectedSeconds, stream = process.stderr }) {
  if (!stream.isTTY || expectedSeconds < 2) return { tick() {}, grow() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { stream, format: 'cells {bar} {value}/{total} | {label} | ETA {eta_formatted}', clearOnComplete: true, hideCursor: true, etaBuffer: 20 },
    cliProgress.Presets.shades_classic,
  );
  let total = cells;
  bar.start(total, 0, { label: 'starting' });
  return {
    tick: (payload) => bar.increment(payload),
    // an adaptive run adds a round when its claims are still undecided
    grow: (more) => bar.setTotal((total += more)),
    stop: () => bar.stop(),
  };
}
