/**
 * Whether a process's command line (/proc/<pid>/cmdline, NUL-separated) is the process-group supervisor's: Node
 * running the supervisor's program: the bundle (supervisorMain.js) or, from the sources, a `-e` line that
 * loads its entry file (supervisorMain.ts).
 */
export function isSupervisorCommandLine(cmdline: string): boolean {
  const args = cmdline.split('\0').filter(Boolean);
  return /node/.test(args[0] ?? '') && /[\\/]supervisorMain\.(js|ts)\b/.test(args.at(-1) ?? '');
}
