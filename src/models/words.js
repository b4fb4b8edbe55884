// The sentences a document's figures make, drawn when it is shown: the verdict, the account in
// words, what to try next. A run saves the figures, kinds and codes; these are made from them,
// for a live run and a saved file alike. A file saved before kept the sentences themselves
// (`verdict.text`, `account.words`, `next`): those are read as they were saved.
import { nextStep, verdictText } from '../document/sentences.js';
import { wordsOfAccount } from '../document/account.js';

/**
 * The verdict in a sentence: `procs are 1.16x faster than workers (95% CI 1.08-1.26)`.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function verdictWords(document) {
  const { verdict, ratio } = document;
  if (!verdict || !ratio) return null;
  return typeof verdict.text === 'string' ? verdict.text : verdictText(ratio, verdict, document);
}

/**
 * The account in words: what differs between the modes' time per op, what is left unexplained,
 * whether the cells were still warming up, what to try.
 * @param {any} account  a compare's or a sweep point's
 * @param {any} document  the run it is of (its arms, whether it was traced, its protocol)
 * @returns {import('../document/account.js').AccountWords | null}
 */
export function accountWordsOf(account, document) {
  if (!account) return null;
  return account.words ?? wordsOfAccount(account, document);
}

/**
 * What to run next, after the verdict: null for a run of one mode, or without a ratio.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function nextWords(document) {
  if ('next' in document) return document.next ?? null;
  return document.ratio ? nextStep(document) : null;
}
