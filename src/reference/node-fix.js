// Node's answer to the investigation: fs.readFileSync(path, { buffer }) reads into memory the
// caller passes (nodejs/node#63600, pull request 63634). Which releases have it, from Node's
// changelogs; the readfilesync-into task checks the Node it runs on for itself.

export const BUFFER_OPTION = {
  since: ['24.19.0', '26.4.0'],
  source: 'nodejs/node#63600, pull request 63634',
};

/**
 * Whether a Node release has readFileSync's buffer option: 24.19 and newer in 24, 26.4 and
 * newer in 26, and every later major (25 and older majors do not).
 * @param {string} version  `v24.21.0`
 */
export function hasBufferOption(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const line = BUFFER_OPTION.since.map((v) => v.split('.').map(Number)).find(([m]) => m === major);
  if (line) return minor >= line[1];
  return major > Math.max(...BUFFER_OPTION.since.map((v) => Number(v.split('.')[0])));
}
