import { hostname, userInfo } from 'node:os';
import { gitOutput } from '../git/gitExec';

/** Who is making a change: git's user.email for the repository, else user@host. */
export async function whoAmI(root: string): Promise<string> {
  const email = await gitOutput(root, ['config', 'user.email']).then(
    (v) => v.trim(),
    () => '',
  );
  if (email) return email;
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers).
  }
  return `${user}@${hostname()}`;
}
