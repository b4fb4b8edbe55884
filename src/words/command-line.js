import { quote } from 'shell-quote';

/**
 * A command a user can paste into a shell as printed: paths with spaces or quotes are quoted
 * (shell-quote), so a hint never runs something other than what it names.
 * @param {string[]} words
 */
export const commandLine = (words) => quote(words);
