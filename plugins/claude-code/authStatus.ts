import { z } from 'zod';
import type { CliSignIn } from '../shared/cliSignIn';

/**
 * What `claude auth status --json` prints (Claude Code 2.1.332): `loggedIn` with `authMethod` (`claude.ai`,
 * `api_key`, `oauth_token`, `api_key_helper`, `third_party` for Bedrock or Vertex, `none`); exit code 1 when not
 * signed in. Only `loggedIn` is read.
 */
const AuthStatus = z.object({ loggedIn: z.boolean() });

/** Claude Code's own sign-in (a claude.ai or Console login, a token, a key helper, a cloud provider). */
export const claudeSignIn: CliSignIn = {
  secret: 'ANTHROPIC_API_KEY',
  statusArgs: ['auth', 'status', '--json'],
  loginArgs: ['auth', 'login'],
  // The status is read from the CLI's own files; without this it also looks up the API's host name (DNS).
  statusEnv: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
  read: (_exitCode, stdout) => {
    try {
      const parsed = AuthStatus.safeParse(JSON.parse(stdout));
      return parsed.success ? parsed.data.loggedIn : undefined;
    } catch {
      return undefined;
    }
  },
};
