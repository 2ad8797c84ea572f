/** The repository a folder belongs to, found before a project is opened on it (trust, the backend, the config file). */
export { resolveRepoRoot } from '../workspace/gitRepo';
