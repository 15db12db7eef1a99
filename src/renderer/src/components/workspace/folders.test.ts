import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../shared/transcript';
import { folderName, recentFolders } from './folders';

const chat = (id: string, updatedAt: string, workspace?: string): SessionSummary => ({
  id,
  title: id,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt,
  ...(workspace ? { workspace } : {}),
});

describe('workspace folders', () => {
  it('names a folder by its last part, on either kind of separator', () => {
    expect(folderName('/home/ann/project/')).toBe('project');
    expect(folderName('C:\\Users\\ann\\site')).toBe('site');
  });

  it('lists recent folders newest first, each once, then the start folder, without the current one', () => {
    const sessions = [
      chat('a', '2026-11-02T00:00:00.000Z', '/w/old'),
      chat('b', '2026-11-05T00:00:00.000Z', '/w/new'),
      chat('c', '2026-11-04T00:00:00.000Z', '/w/old'),
      chat('d', '2026-11-06T00:00:00.000Z'),
      chat('e', '2026-11-03T00:00:00.000Z', '/w/current'),
    ];
    expect(recentFolders(sessions, '/w/start', '/w/current')).toEqual(['/w/new', '/w/old', '/w/start']);
    expect(recentFolders(sessions, null, null, 2)).toEqual(['/w/new', '/w/old']);
  });
});
