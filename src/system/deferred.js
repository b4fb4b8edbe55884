// A promise with its resolve, as Promise.withResolvers gives from Node 22 (Node 20 has none):
// how a host's or a tracer's message settles what another part awaits.

/**
 * @template [T=void]
 * @returns {{ promise: Promise<T>, resolve: (value: T) => void }}
 */
export function deferred() {
  /** @type {(value: T) => void} */
  let resolve = () => {};
  const promise = new Promise((settle) => (resolve = settle));
  return { promise, resolve };
}
