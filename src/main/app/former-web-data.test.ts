import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFormerWebData, FORMER_WEB_MARKER, formerWebNote } from './former-web-data';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'waypoint-former-web-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('copyFormerWebData', () => {
  it("copies the former folder's chats, checkpoints and attachments once, keeping everything the shared folder already has", async () => {
    const from = join(root, 'former');
    const to = join(root, 'shared');
    put(join(from, 'sessions', 'a', 'events.jsonl'), 'chat a\n');
    put(join(from, 'sessions', 'a', 'WBS.md'), '# plan\n');
    put(join(from, 'sessions', 'b', 'events.jsonl'), 'chat b\n');
    put(join(from, 'checkpoints', 'a', 'f1'), 'before\n');
    put(join(from, 'attachments', 'ab', 'abcdef'), 'blob');
    put(join(from, 'settings.json'), '{"model":"former"}\n');
    // What is never carried over: a claim, a waiting request, the chat list, a temp file, a link.
    put(join(from, 'sessions', 'a.lock'), '{"pid":1}');
    put(join(from, 'sessions', 'a', 'inbox', 'r1.json'), '{}');
    put(join(from, 'sessions', 'index.json'), '{"version":1,"sessions":[]}');
    put(join(from, 'sessions', 'a', '.events.jsonl.tmp'), 'half');
    symlinkSync('/etc/passwd', join(from, 'sessions', 'b', 'leak'));
    put(join(to, 'settings.json'), '{"model":"shared"}\n');
    put(join(to, 'sessions', 'c', 'events.jsonl'), 'chat c\n');

    const copied = await copyFormerWebData(from, to);
    expect(copied).toEqual({ chats: 2, files: 5 });
    expect(readFileSync(join(to, 'sessions', 'a', 'events.jsonl'), 'utf8')).toBe('chat a\n');
    expect(readFileSync(join(to, 'sessions', 'b', 'events.jsonl'), 'utf8')).toBe('chat b\n');
    expect(readFileSync(join(to, 'sessions', 'a', 'WBS.md'), 'utf8')).toBe('# plan\n');
    expect(readFileSync(join(to, 'checkpoints', 'a', 'f1'), 'utf8')).toBe('before\n');
    expect(readFileSync(join(to, 'attachments', 'ab', 'abcdef'), 'utf8')).toBe('blob');
    expect(readFileSync(join(to, 'settings.json'), 'utf8')).toBe('{"model":"shared"}\n');
    expect(readFileSync(join(to, 'sessions', 'c', 'events.jsonl'), 'utf8')).toBe('chat c\n');
    expect(existsSync(join(to, 'sessions', 'a.lock'))).toBe(false);
    expect(existsSync(join(to, 'sessions', 'a', 'inbox'))).toBe(false);
    expect(existsSync(join(to, 'sessions', 'index.json'))).toBe(false);
    expect(existsSync(join(to, 'sessions', 'a', '.events.jsonl.tmp'))).toBe(false);
    expect(readdirSync(join(to, 'sessions', 'b'))).toEqual(['events.jsonl']);
    // The former folder is left exactly as it was.
    expect(readFileSync(join(from, 'settings.json'), 'utf8')).toBe('{"model":"former"}\n');
    expect(existsSync(join(from, 'sessions', 'a.lock'))).toBe(true);

    expect(formerWebNote(from, to, copied!)).toBe(
      `waypoint: copied 2 chats from the web shell's former data folder (${from}) into the shared one (${to}); the former folder is left as it was.`,
    );
    // Once: a later start copies nothing, even a chat the former folder gained since.
    put(join(from, 'sessions', 'd', 'events.jsonl'), 'chat d\n');
    expect(await copyFormerWebData(from, to)).toBeNull();
    expect(existsSync(join(to, 'sessions', 'd'))).toBe(false);
    expect(JSON.parse(readFileSync(join(to, FORMER_WEB_MARKER), 'utf8'))).toMatchObject({ from, chats: 2, files: 5 });
  });

  it('does nothing without a former folder, and says nothing when it held no chat', async () => {
    const to = join(root, 'shared');
    expect(await copyFormerWebData(join(root, 'missing'), to)).toBeNull();
    expect(existsSync(join(to, FORMER_WEB_MARKER))).toBe(false);
    put(join(root, 'empty', 'settings.json'), '{}\n');
    const copied = await copyFormerWebData(join(root, 'empty'), to);
    expect(copied).toEqual({ chats: 0, files: 1 });
    expect(formerWebNote(join(root, 'empty'), to, copied!)).toBeNull();
    expect(await copyFormerWebData(to, to)).toBeNull();
  });
});
