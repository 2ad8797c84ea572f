import { join } from 'node:path';
import { runWithCodeCache } from './runWithCodeCache';

// dist/cli.js, the `switchyard` command: it only loads dist/cliMain.js (src/cli/cliMain.ts, the whole CLI) with a V8
// code cache, so a short command (`status`, `task add`, the hooks' calls) does not compile the bundle again each time.
runWithCodeCache(join(__dirname, 'cliMain.js'));
