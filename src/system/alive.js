/**
 * Whether a process with this pid exists (EPERM: it does, but belongs to another user).
 * @param {number} pid
 */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
