/**
 * `iterations` async steps with `concurrency` in flight: each lane starts the next step as soon
 * as its last one settles. The shape of every "N requests in flight" built-in task.
 * @param {number} concurrency
 * @param {number} iterations
 * @param {(lane: number) => Promise<unknown>} step
 */
export async function inFlight(concurrency, iterations, step) {
  let next = 0;
  const lane = async (/** @type {number} */ index) => {
    while (next < iterations) {
      next++;
      await step(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, iterations) }, (_, index) => lane(index)));
}
