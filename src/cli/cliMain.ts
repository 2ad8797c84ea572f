import { main } from './main';
import type { CliStdin } from './cliContext';

// dist/cliMain.js, loaded by dist/cli.js (bin.ts). The exit code is all there is to wait for: main() reports its own
// errors and never rejects.
void main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdin: lazyStdin(),
  out: (t) => console.log(t),
  err: (t) => console.error(t),
}).then((code) => {
  process.exitCode = code;
});

/** `process.stdin`, opened on first use: creating the stream costs a few milliseconds most commands never need. */
function lazyStdin(): CliStdin {
  return {
    get isTTY() {
      return process.stdin.isTTY;
    },
    [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator](),
  };
}
