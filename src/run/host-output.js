// What a host process writes: a task may print, even in its timed loop. The CLI keeps the last
// KEEP bytes of each stream, for the cause of a failure and for --verbose, and drops the rest as
// it arrives, so a task's output neither fills the CLI's memory nor blocks the host on a full
// pipe, and its size never fails a run.
const KEEP = 64 * 1024;

/**
 * @typedef {{ stdout: () => string, stderr: () => string }} HostOutput
 */

/**
 * Starts reading a host's stdout and stderr (from its spawn, so the pipes never fill).
 * @param {{ stdout?: NodeJS.ReadableStream | null, stderr?: NodeJS.ReadableStream | null }} subprocess
 * @returns {HostOutput}
 */
export function captureOutput(subprocess) {
  const stdout = lastBytes(subprocess.stdout);
  const stderr = lastBytes(subprocess.stderr);
  return { stdout, stderr };
}

/**
 * @param {NodeJS.ReadableStream | null | undefined} stream
 * @returns {() => string}  the last KEEP bytes read so far, with how many came before them
 */
function lastBytes(stream) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  let dropped = 0;
  stream?.on('data', (/** @type {Buffer} */ chunk) => {
    chunks.push(chunk);
    size += chunk.length;
    while (chunks.length > 1 && size - chunks[0].length >= KEEP) {
      const first = /** @type {Buffer} */ (chunks.shift());
      size -= first.length;
      dropped += first.length;
    }
  });
  return () => {
    const all = Buffer.concat(chunks);
    const cut = Math.max(0, all.length - KEEP);
    const before = dropped + cut;
    return `${before ? `[${before} bytes before this left out]\n` : ''}${all.subarray(cut).toString()}`;
  };
}

/**
 * A host's output as --verbose shows it after a failure: each stream that had any, labelled.
 * @param {HostOutput} output
 * @param {string} label  who wrote it
 */
export const outputText = (output, label) =>
  /** @type {const} */ (['stdout', 'stderr'])
    .flatMap((stream) => {
      const text = output[stream]().trimEnd();
      return text ? [`${label} ${stream}:\n${text}`] : [];
    })
    .join('\n');
