/** Exact command-line matching lives in src/shared: Settings validates approval rules with it too. */
export { commandWords, matchesCommandLine, normaliseCommandLine } from '../../../shared/command-line';
