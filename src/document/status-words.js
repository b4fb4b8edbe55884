// How a run ended, worded once for every command's reader: after a title, and as a sentence.

/**
 * What a run that did not complete says after its title: ` — INTERRUPTED`, or with its rounds
 * ` — INTERRUPTED after 3 of 10 rounds`; nothing when it completed.
 * @param {string} status
 * @param {{ done: number, of?: number | null }} [rounds]  its complete rounds, and of how many it
 *   was to run (none: it ran until its intervals were narrow enough)
 */
export function titleState(status, rounds) {
  if (status === 'complete') return '';
  if (!rounds) return ` — ${status.toUpperCase()}`;
  const { done, of } = rounds;
  return ` — ${status.toUpperCase()} after ${done}${of ? ` of ${of}` : ''} round${(of ?? done) === 1 ? '' : 's'}`;
}

/**
 * How a run ended, as a sentence with what to do next where there is something to do.
 * @param {{ status: string, error?: { message?: string } | null }} document
 */
export const statusSentence = ({ status, error }) =>
  status === 'failed'
    ? `failed: ${error?.message}`
    : status === 'interrupted'
      ? 'interrupted: resume with --resume'
      : status === 'incomplete'
        ? 'ended without a report (killed): resume with --resume'
        : status;
