/**
 * Where a confidence interval lies against a threshold: the one decision behind every verdict
 * (is workers/procs below 1? does a claim's ratio clear 0.71?). Data only; report/ words it.
 * @param {[number, number] | null} ci
 * @param {number} threshold
 * @returns {'below'|'above'|'spans'|null}  null: no interval yet
 */
export const sideOf = (ci, threshold) =>
  !ci ? null : ci[1] < threshold ? 'below' : ci[0] > threshold ? 'above' : 'spans';

/**
 * Where a confidence interval lies against a band [low, high] ("within ±10%").
 * @param {[number, number] | null} ci
 * @param {[number, number]} band
 * @returns {'inside'|'outside'|'overlaps'|null}
 */
export function bandOf(ci, [low, high]) {
  if (!ci) return null;
  if (ci[0] >= low && ci[1] <= high) return 'inside';
  if (sideOf(ci, low) === 'below' || sideOf(ci, high) === 'above') return 'outside';
  return 'overlaps';
}
