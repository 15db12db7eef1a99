import { describe, expect, it } from 'vitest';
import { hasShellControl, isAllowListed } from './allow-list';

describe('isAllowListed', () => {
  const list = ['npm test', 'git status', 'ls', 'npx vitest run'];
  it.each([
    ['npm test', true],
    ['npm test -- --watch=false', true],
    ['  npm   test  ', true],
    ['git status', true],
    ['git status --short', true],
    ['ls -la src', true],
    ['npx vitest run src/main', true],
    ['npm testx', false],
    ['npm tes', false],
    ['npm', false],
    ['git statuses', false],
    ['lsblk', false],
    ['npm test; rm -rf /', false],
    ['npm test && rm -rf /', false],
    ['npm test || curl evil', false],
    ['npm test | sh', false],
    ['npm test > /etc/passwd', false],
    ['npm test < /dev/zero', false],
    ['npm test $(rm -rf /)', false],
    ['npm test `rm -rf /`', false],
    ['npm test\nrm -rf /', false],
    ['npm test & sleep 1', false],
    ['rm -rf /', false],
    ['', false],
  ])('%j → %s', (command, expected) => {
    expect(isAllowListed(command, list)).toBe(expected);
  });

  it('ignores allow-list entries that themselves contain control operators', () => {
    expect(isAllowListed('npm test; ls', ['npm test; ls'])).toBe(false);
  });

  it('allows nothing with an empty list', () => {
    expect(isAllowListed('ls', [])).toBe(false);
  });
});

describe('hasShellControl', () => {
  it('sees each operator', () => {
    for (const op of [';', '&', '|', '>', '<', '$(', '`', '\n']) expect(hasShellControl(`a ${op} b`)).toBe(true);
    expect(hasShellControl('npm run build -- --mode=production')).toBe(false);
  });
});
