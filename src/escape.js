// Text from outside (a file's strings, a task's name, a path, a binary's output) as it is shown:
// control characters escaped as JSON writes them, so a terminal never obeys what it prints.

// Control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides:
// each could retitle a terminal, clear it, colour it or forge a line of output.
// eslint-disable-next-line no-control-regex -- these are what it finds
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
const NAMED = /** @type {Record<string, string>} */ ({ '\n': '\\n', '\t': '\\t', '\r': '\\r' });

/**
 * One string with its control characters shown escaped (`\n`, `\u001b`); itself when it has none.
 * @param {unknown} text
 * @returns {string}
 */
export const escapeText = (text) => {
  const value = String(text);
  return CONTROL.test(value)
    ? value.replace(CONTROLS, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : value;
};

/**
 * Lines of text from outside (a task's stack, its output) as they are shown: each line escaped
 * (escapeText), the lines themselves kept.
 * @param {unknown} text
 * @returns {string}
 */
export const escapeLines = (text) => String(text).split('\n').map(escapeText).join('\n');
