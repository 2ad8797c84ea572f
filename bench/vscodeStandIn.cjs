// A stand-in for the `vscode` module, for measuring the extension's start-up in plain Node
// (bench/startupBench.ts): the API surface activation touches, doing nothing but keeping listeners.
'use strict';

class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  dispose() {
    this.fn?.();
  }
  static from(...items) {
    return new Disposable(() => {
      for (const i of items) i.dispose();
    });
  }
}

class EventEmitter {
  listeners = new Set();
  event = (listener) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value) {
    for (const l of this.listeners) l(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

class Uri {
  constructor(scheme, path) {
    this.scheme = scheme;
    this.path = path;
    this.fsPath = path;
  }
  static file(path) {
    return new Uri('file', path);
  }
  static from({ scheme, path }) {
    return new Uri(scheme, path);
  }
  static joinPath(base, ...parts) {
    return new Uri(base.scheme, [base.path, ...parts].join('/'));
  }
  toString() {
    return `${this.scheme}://${this.path}`;
  }
}

class RelativePattern {
  constructor(base, pattern) {
    this.base = base;
    this.pattern = pattern;
  }
}

class TreeItem {
  constructor(label, collapsibleState) {
    this.label = label;
    this.collapsibleState = collapsibleState;
  }
}

class ThemeIcon {
  constructor(id, color) {
    this.id = id;
    this.color = color;
  }
}

const noop = () => new Disposable();
/** The commands registered, by id (the probe calls them). */
const registered = new Map();
function registerCommand(id, handler) {
  registered.set(id, handler);
  return new Disposable(() => registered.delete(id));
}
const event = () => noop;
const folderPath = process.env.SWITCHYARD_STANDIN_FOLDER;
const workspaceFolders = folderPath ? [{ uri: Uri.file(folderPath), name: 'bench', index: 0 }] : undefined;

function watcher() {
  return { onDidChange: noop, onDidCreate: noop, onDidDelete: noop, dispose() {} };
}

function statusBarItem() {
  return { show() {}, hide() {}, dispose() {} };
}

module.exports = {
  Disposable,
  EventEmitter,
  Uri,
  RelativePattern,
  TreeItem,
  ThemeIcon,
  ThemeColor: class ThemeColor {
    constructor(id) {
      this.id = id;
    }
  },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ViewColumn: { Active: -1 },
  commands: { registerCommand, executeCommand: async (id, ...args) => registered.get(id)?.(...args) },
  standInRegistered: registered,
  // No other extension is installed: none contributes lanes.
  extensions: { all: [], getExtension: () => undefined, onDidChange: () => ({ dispose() {} }) },
  window: {
    createStatusBarItem: statusBarItem,
    // As VS Code's TreeView: its message, description and badge, whether it is visible, and its visibility event.
    createTreeView: () => ({
      dispose() {},
      message: undefined,
      description: undefined,
      badge: undefined,
      visible: false,
      selection: [],
      onDidChangeVisibility: () => ({ dispose() {} }),
      onDidChangeSelection: () => ({ dispose() {} }),
    }),
    registerWebviewPanelSerializer: noop,
    createOutputChannel: () => ({ appendLine() {}, info() {}, warn() {}, error() {}, dispose() {} }),
    showErrorMessage: async () => undefined,
    showInformationMessage: async () => undefined,
    withProgress: async (_options, task) => task({ report() {} }, { isCancellationRequested: false }),
    onDidChangeActiveTextEditor: event(),
    activeTextEditor: undefined,
  },
  workspace: {
    workspaceFolders,
    isTrusted: true,
    getConfiguration: () => ({ get: (_key, fallback) => fallback, inspect: () => undefined }),
    createFileSystemWatcher: watcher,
    registerTextDocumentContentProvider: noop,
    onDidChangeWorkspaceFolders: event(),
    onDidChangeConfiguration: event(),
    onDidGrantWorkspaceTrust: event(),
    onDidCloseTextDocument: event(),
  },
  env: { appName: 'stand-in', uiKind: 1 },
  UIKind: { 1: 'Desktop', Desktop: 1 },
  version: '1.100.0',
};
