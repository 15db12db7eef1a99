import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, startChat } from '../../../../test-support/main/chat-test-setup';

// "New chat" pressed three times gives one empty chat, not three (issue 12, item 21).
afterEach(closeAll);

describe('New chat reuses an empty chat', () => {
  it('hands back the newest empty chat, at the top of the list', async () => {
    const { chats, session } = await startChat({ name: 'new-chat', turns: [] });
    const first = chats.newSession({ reuseEmpty: true });
    const second = chats.newSession({ reuseEmpty: true });
    expect(first.id).toBe(session.id);
    expect(second.id).toBe(session.id);
    expect(chats.listSessions()).toHaveLength(1);
  });

  it('makes a new chat once the empty one has a message, and moves an older empty chat to the top', async () => {
    const { service, chats, session, recorder } = await startChat({ name: 'new-chat', turns: [{ kind: 'text', text: 'Hi.' }] });
    const older = chats.newSession();
    service.sendMessage(session.id, 'Hello');
    await recorder.idle(session.id);
    expect(chats.listSessions()[0]!.id).toBe(session.id);
    // The chat with a message stays; the empty one comes back to the top instead of a third chat.
    await new Promise((r) => setTimeout(r, 2));
    expect(chats.newSession({ reuseEmpty: true }).id).toBe(older.id);
    expect(chats.listSessions().map((s) => s.id)).toEqual([older.id, session.id]);
    service.sendMessage(older.id, 'Now this one too');
    await recorder.idle(older.id, recorder.events.length);
    const fresh = chats.newSession({ reuseEmpty: true });
    expect([session.id, older.id]).not.toContain(fresh.id);
    expect(chats.listSessions()).toHaveLength(3);
  });

  it('without reuseEmpty (tests, the CLI) every call makes a chat', async () => {
    const { chats } = await startChat({ name: 'new-chat', turns: [] });
    chats.newSession();
    expect(chats.listSessions()).toHaveLength(2);
  });
});
