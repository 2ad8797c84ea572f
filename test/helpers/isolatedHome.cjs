// No test writes in the home folder of whoever runs it. Every mocha run that uses the default configuration (the unit,
// integration, stress and matrix tiers, and one file run on its own) loads this before any test file (.mocharc.json):
// HOME and the XDG base folders point at a fresh temporary folder, which the processes tests start inherit, and after
// the last test the run fails, naming each path, if anything changed where the code writes under the real home
// (Switchyard's own folders, git's global configuration). Tests that set a HOME of their own keep it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// Read before HOME changes: on Linux os.homedir() is $HOME, else the user's home from the password database.
const realHome = os.homedir();
const XDG = {
  XDG_CONFIG_HOME: '.config',
  XDG_CACHE_HOME: '.cache',
  XDG_DATA_HOME: '.local/share',
  XDG_STATE_HOME: '.local/state',
};

// What the code writes under a home: the CLI's code cache ($XDG_CACHE_HOME/switchyard), the trusted repositories
// ($XDG_CONFIG_HOME/switchyard), git's global configuration. The other Switchyard folders are watched too, so that a
// change that starts writing there is caught. Other tools' folders (npm's cache, the agent CLIs' own) are not: other
// programs on the machine write there while the tests run.
const watched = new Set(['.switchyard', '.gitconfig', '.config/git'].map((p) => path.join(realHome, p)));
for (const [name, under] of Object.entries(XDG)) {
  watched.add(path.join(realHome, under, 'switchyard'));
  // Where this environment moved an XDG folder, the code writes there instead.
  if (process.env[name]) watched.add(path.join(process.env[name], 'switchyard'));
}
watched.add(path.join(process.env.XDG_CONFIG_HOME || path.join(realHome, '.config'), 'git'));

/** Every path at and under `root`, with what it is: kind, size and modification time (absent: not there). */
function snapshot(root) {
  const seen = new Map();
  const visit = (p) => {
    let info;
    try {
      info = fs.lstatSync(p);
    } catch {
      return;
    }
    const kind = info.isDirectory() ? 'folder' : info.isSymbolicLink() ? `link to ${fs.readlinkSync(p)}` : 'file';
    seen.set(p, `${kind}, ${info.isDirectory() ? '' : `${info.size} bytes, `}modified ${info.mtime.toISOString()}`);
    if (info.isDirectory()) for (const name of fs.readdirSync(p).sort()) visit(path.join(p, name));
  };
  visit(root);
  return seen;
}

function snapshotAll() {
  const all = new Map();
  for (const root of watched) for (const [p, what] of snapshot(root)) all.set(p, what);
  return all;
}

const before = snapshotAll();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-test-home-'));
process.env.HOME = home;
for (const [name, under] of Object.entries(XDG)) process.env[name] = path.join(home, under);

/** What changed under the watched paths since the run began, one line a path. */
function changes() {
  const after = snapshotAll();
  const lines = [];
  for (const [p, what] of before) {
    if (!after.has(p)) lines.push(`removed ${p} (was: ${what})`);
    else if (after.get(p) !== what) lines.push(`changed ${p} (was: ${what}; now: ${after.get(p)})`);
  }
  for (const [p, what] of after) if (!before.has(p)) lines.push(`added ${p} (${what})`);
  return lines;
}

exports.mochaHooks = {
  afterAll() {
    const changed = changes();
    fs.rmSync(home, { recursive: true, force: true });
    if (changed.length) {
      throw new Error(
        `the tests wrote outside their temporary folders, under the real home ${realHome} (HOME and XDG folders ` +
          `pointed at a temporary one; or another program on this machine wrote there meanwhile):\n` +
          changed.join('\n'),
      );
    }
  },
};
