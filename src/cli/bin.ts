import { main } from './main';

main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  out: (t) => console.log(t),
  err: (t) => console.error(t),
}).then((code) => {
  process.exitCode = code;
});
