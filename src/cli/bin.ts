import { main } from './main';

// The exit code is all there is to wait for: main() reports its own errors and never rejects.
void main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  out: (t) => console.log(t),
  err: (t) => console.error(t),
}).then((code) => {
  process.exitCode = code;
});
