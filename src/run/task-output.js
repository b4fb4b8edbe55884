// What a task writes to process.stdout and stderr in a cell is queued in memory until it is
// written out: a Worker thread's always (its parent's main thread writes it), a child process's
// because its streams are the socket its host gave it. A task that writes faster than that (128
// KiB an op) grew the queue until the machine ran out of memory (threads) or the write failed
// with ENOBUFS (processes). So in a cell each stream holds at most CAP bytes not yet written out:
// past it a write is dropped and counted, and the count is reported with the cell. A task that
// prints a few lines never comes near it.
const CAP = 1024 * 1024;

/**
 * Caps what this thread's (or process's) process.stdout and process.stderr may hold queued.
 * @returns {() => number}  the bytes dropped so far, both streams together
 */
export function capTaskOutput() {
  let dropped = 0;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    /** @type {any} */
    const capped = (/** @type {any} */ chunk, /** @type {any} */ encoding, /** @type {any} */ callback) => {
      if (stream.writableLength < CAP) return write(chunk, encoding, callback);
      dropped += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk?.length ?? 0);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => done());
      return false;
    };
    stream.write = capped;
  }
  return () => dropped;
}
