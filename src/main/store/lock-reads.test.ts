import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDataFolder } from '../../../test-support/main/data-folder-writers';
import { noticeItem } from '../common/transcript-items';
import { ChatLocks, lockPathFor, type LockOwner } from './chat-lock';

/**
 * The writer's lock is read back once per turn of the event loop, not before every record (a
 * planning reply writes dozens of records in one turn), and a take-over is still noticed before
 * the first record of the next turn (docs/security.md, "A holder that lost its lock stops").
 */
const folder = useDataFolder('waypoint-lock-reads-');
afterEach(() => vi.restoreAllMocks());

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));
const logOf = (id: string) => readFileSync(join(folder.sessionsDir, id, 'events.jsonl'), 'utf8');

describe('lock reads of a chat being written', () => {
  it('twenty records written in one turn read the lock once; the next turn reads it again', async () => {
    const app = await folder.writer('the Waypoint app');
    const { id } = app.chats.newSession({ title: 'Busy' });
    await turnEnd();
    const verify = vi.spyOn(ChatLocks.prototype, 'verify');

    for (let i = 0; i < 20; i++) app.chats.addNotice(id, noticeItem('info', `record ${i}`));
    expect(verify).toHaveBeenCalledTimes(1);
    // Awaited work of the same turn (the tool calls of one reply run so) shares the read.
    await Promise.resolve();
    app.chats.addNotice(id, noticeItem('info', 'after a promise job'));
    expect(verify).toHaveBeenCalledTimes(1);

    await turnEnd();
    app.chats.addNotice(id, noticeItem('info', 'next turn'));
    expect(verify).toHaveBeenCalledTimes(2);
    for (const text of ['record 0', 'record 19', 'after a promise job', 'next turn']) expect(logOf(id)).toContain(text);
  });

  it('a take-over between two turns: the first record after it is not written, and the loss is said', async () => {
    const app = await folder.writer('the Waypoint app');
    const { id } = app.chats.newSession({ title: 'Shared' });
    app.chats.addNotice(id, noticeItem('info', 'before the take-over'));
    await turnEnd();

    // Another process takes the lock (as Take over writes it: its own token in the file). On another
    // host, so this process cannot prove it stale and take it back when it claims the chat again.
    const path = lockPathFor(folder.sessionsDir, id);
    const mine = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    writeFileSync(path, JSON.stringify({ ...mine, token: 'the-other-process', holder: 'waypoint mcp', host: 'laptop.local' }));

    app.chats.addNotice(id, noticeItem('info', 'after the take-over'));
    expect(logOf(id)).toContain('before the take-over');
    expect(logOf(id)).not.toContain('after the take-over');
    expect(app.warnings.join('\n')).toMatch(/was taken over by waypoint mcp/);
  });
});
