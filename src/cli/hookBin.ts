import { join } from 'node:path';
import { runWithCodeCache } from './runWithCodeCache';

// dist/hook.js: what the installed pre-push hook runs. It only loads dist/hookMain.js (src/cli/hookMain.ts, the
// guards) with a V8 code cache, as git waits for this process on every push.
runWithCodeCache(join(__dirname, 'hookMain.js'));
