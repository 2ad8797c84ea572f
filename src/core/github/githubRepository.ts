/** `owner/name` of a GitHub repository. */
export interface RepositoryName {
  owner: string;
  repo: string;
}

/**
 * The GitHub repository a remote URL names: `https://HOST/owner/name(.git)`, `ssh://git@HOST(:port)/owner/name.git`
 * or the scp-like `git@HOST:owner/name.git`. Undefined for a local path, a `file://` URL or a path that is not
 * `owner/name`.
 */
export function repositoryFromRemoteUrl(url: string): RepositoryName | undefined {
  const text = url.trim();
  let path: string | undefined;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (/^(?:https?|ssh|git):\/\//i.test(text)) {
    try {
      path = new URL(text).pathname;
    } catch {
      return undefined;
    }
  } else if (scp && !/^[a-z]:[\\/]/i.test(text)) path = scp[2];
  if (!path) return undefined;
  const parts = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (parts.length !== 2 || !parts.every((p) => /^[\w.-]+$/.test(p))) return undefined;
  return { owner: parts[0]!, repo: parts[1]! };
}

/** `owner/name` from the `github.repository` setting. */
export function parseRepositoryName(text: string): RepositoryName | undefined {
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(text.trim());
  return m ? { owner: m[1]!, repo: m[2]! } : undefined;
}
