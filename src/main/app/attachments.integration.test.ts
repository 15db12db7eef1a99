import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import { isSummaryRequest, longChatResponder, smallWindowModel, userMessage } from '../../../test-support/main/long-chat-kit';
import type { Attachment } from '../../shared/attachments';
import { DEFAULT_MODEL } from '../../shared/settings';
import type { CallInput, CallName, CallOutput, EventOf, WaypointEvent } from '../../shared/contract';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

// Attachments through the whole app (docs/contract.md §5 "Attachments"): uploads in pieces through the
// validating router, checks of every kind, storage by content hash, the real SDK carrying image,
// document and text blocks to the scripted API (which checks them as the real API does), later
// requests and a restart keeping them, the export, and images a real MCP server's tool returns.

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let events: WaypointEvent[];

async function boot(scenario: Scenario, mcpServers: object = {}) {
  api ??= await startScriptedServer({ scenario });
  const configPath = join(dir, 'mcp.json');
  await writeFile(configPath, JSON.stringify({ mcpServers }));
  events = [];
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-env-key-123', ANTHROPIC_BASE_URL: api.url },
    mcpConfigPath: configPath,
  });
  services.onEvent((e) => events.push(e));
}

const call = async <N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> => {
  const result = await services.router(name, input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as CallOutput<N>;
};

/** Uploads as the renderer does: announce, pieces of chunkBytes as base64, finish. */
async function upload(name: string, bytes: Buffer): Promise<Attachment> {
  const { uploadId, chunkBytes } = await call('startUpload', { name, size: bytes.length, mediaType: '' });
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    await call('uploadChunk', { uploadId, offset, data: bytes.subarray(offset, offset + chunkBytes).toString('base64') });
  }
  return call('finishUpload', { uploadId });
}

async function waitFor<T extends WaypointEvent['type']>(type: T, pred: (e: EventOf<T>) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = events.find((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching ${type}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const replyDone = (text: RegExp) => (e: EventOf<'transcript_item'>) => e.item.kind === 'assistant' && e.item.status === 'done' && text.test(e.item.text);

type Block = { type: string; source?: { type: string; media_type?: string; data?: string; url?: string }; text?: string; content?: unknown };
const userBlocks = (i: number, message = 0): Block[] => (api.requests[i]!.body as { messages: Array<{ content: Block[] }> }).messages[message]!.content;

async function pdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`Page ${i + 1}`);
  return Buffer.from(await doc.save());
}
const noisePng = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
const plainPng = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#2a7' } }).png().toBuffer();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-attach-'));
});
afterEach(async () => {
  await services?.dispose();
  await api?.close();
  api = undefined as unknown as ScriptedServer;
  await rm(dir, { recursive: true, force: true });
});

describe('attachments in the app', { timeout: 90_000 }, () => {
  it('a chat with files compacts: the summary requests and the requests after carry the files, never a reference', async () => {
    // A window that a picture and a few long messages fill, so older turns are summarised (7,500: the
    // delegate tool made every request some 300 tokens longer, and a long turn no longer fit 7,000).
    api = await startScriptedServer({ scenario: { name: 'long', turns: [] }, models: [smallWindowModel(7_500, 1_024, DEFAULT_MODEL)], respond: longChatResponder });
    await boot({ name: 'long', turns: [] });
    const shot = await upload('shot.png', await plainPng(600, 400));
    const { id } = await call('newSession', {});
    await call('sendMessage', { sessionId: id, text: userMessage(1), attachments: [{ id: shot.id, name: shot.name }] });
    await waitFor('transcript_item', replyDone(/Topic 1,/));
    for (let n = 2; n <= 6 && !events.some((e) => e.type === 'transcript_item' && e.item.kind === 'compaction'); n++) {
      await call('sendMessage', { sessionId: id, text: `${userMessage(n)} ${'All the notes we took last week, in order. '.repeat(60)}` });
      await waitFor('transcript_item', replyDone(new RegExp(`Topic ${n},`)));
    }
    expect(events.some((e) => e.type === 'transcript_item' && e.item.kind === 'compaction')).toBe(true);
    expect(api.invalid).toEqual([]);
    const summaries = api.requests.filter((r) => isSummaryRequest(r.body));
    expect(summaries.length).toBeGreaterThan(0);
    // The picture was in the summarised turns: the summary request sent it as an image, not as a reference.
    expect(JSON.stringify(summaries[0]!.body)).toContain('"media_type":"image/png"');
    for (const { body } of api.requests) expect(JSON.stringify(body)).not.toContain('waypoint-attachment:');
    expect(events.filter((e) => e.type === 'transcript_item' && e.item.kind === 'notice' && e.item.level === 'error')).toEqual([]);
  });

  it('sends an image, a PDF and a text file as the API takes them, keeps them for later requests and after a restart, and never logs base64', async () => {
    await boot({ name: 'echo', turns: [] });
    // 7 MB of noise as PNG: two pieces up, then over the API's 5 MB cap, so it is re-encoded smaller.
    const photo = await upload('photo.png', await noisePng(1500, 1300));
    expect(photo).toMatchObject({ kind: 'image', name: 'photo.png', mediaType: 'image/jpeg', downscaledFrom: { width: 1500, height: 1300 } });
    expect(Math.ceil(photo.size / 3) * 4).toBeLessThanOrEqual(5 * 1024 * 1024);
    const wide = await upload('wide.png', await plainPng(4000, 1000));
    expect(wide).toMatchObject({ kind: 'image', mediaType: 'image/png', width: 1568, height: 392 });
    const report = await upload('report.pdf', await pdf(3));
    expect(report).toMatchObject({ kind: 'pdf', pages: 3 });
    const notes = await upload('notes.md', Buffer.from('# Notes\nThe key is 42.\n'));
    expect(notes).toMatchObject({ kind: 'text', mediaType: 'text/markdown' });
    // The same bytes again are the same stored file.
    expect((await upload('again.png', await plainPng(4000, 1000))).id).toBe(wide.id);

    const { id } = await call('newSession', {});
    const refs = [photo, wide, report, notes].map(({ id, name }) => ({ id, name }));
    await call('sendMessage', { sessionId: id, text: 'What do these say?', attachments: refs });
    await waitFor('transcript_item', replyDone(/You said/));

    const first = userBlocks(0);
    expect(first.map((b) => b.type)).toEqual(['image', 'image', 'document', 'text', 'text']);
    expect(first[0]!.source).toMatchObject({ type: 'base64', media_type: 'image/jpeg' });
    expect(first[2]!.source).toMatchObject({ type: 'base64', media_type: 'application/pdf' });
    // Framed by a closing line with the file's own hash, which the file cannot contain (text-file-framing.ts).
    expect(first[3]!.text).toBe(`<file name="notes.md" sha256="${notes.id}">\n# Notes\nThe key is 42.\n\n</file sha256="${notes.id}">`);
    expect(first[4]!.text).toBe('What do these say?');

    // A later request carries them again.
    await call('sendMessage', { sessionId: id, text: 'And now?' });
    await waitFor('transcript_item', replyDone(/And now/));
    expect(userBlocks(1).map((b) => b.source?.type ?? b.type)).toEqual(['base64', 'base64', 'base64', 'text', 'text']);

    // The log names the files by hash, never their bytes.
    const log = await readFile(join(dir, 'data', 'sessions', id, 'events.jsonl'), 'utf8');
    expect(log).toContain(`waypoint-attachment:${photo.id}`);
    expect(log).not.toContain(first[0]!.source!.data!.slice(0, 200));
    expect(log).not.toContain(first[2]!.source!.data!.slice(0, 200));
    expect((await readdir(join(dir, 'data', 'attachments'))).filter((f) => !f.endsWith('.json'))).toHaveLength(4);

    // After a restart: the transcript shows them by name, and the next request still sends them.
    await services.dispose();
    await boot({ name: 'echo', turns: [] });
    const reopened = await call('getSession', { sessionId: id });
    const user = reopened.transcript.find((i) => i.kind === 'user');
    expect(user?.kind === 'user' && user.attachments?.map((a) => a.name)).toEqual(['photo.png', 'wide.png', 'report.pdf', 'notes.md']);
    await call('sendMessage', { sessionId: id, text: 'Still there?' });
    await waitFor('transcript_item', replyDone(/Still there/));
    expect(userBlocks(2)[0]!.source).toMatchObject({ type: 'base64', media_type: 'image/jpeg', data: first[0]!.source!.data });

    // The export has them: the image inline, the text verbatim, the PDF as a link.
    const exported = await call('exportChat', { sessionId: id });
    expect(exported.markdown).toContain('![photo.png](data:image/jpeg;base64,');
    expect(exported.markdown).toContain('The key is 42.');
    expect(exported.markdown).toMatch(/\[report\.pdf \(PDF, 3 pages, [\d.]+ KB\)\]\(data:application\/pdf;base64,/);
    expect((await call('getAttachmentPreview', { id: photo.id })).dataUrl).toMatch(/^data:image\/webp;base64,/);
  });

  it('refuses, naming the file and why, and sends nothing: an .exe, 40 MB, a corrupt PNG, a 500-page PDF, 30 images, a renamed binary', async () => {
    await boot({ name: 'echo', turns: [] });
    const refused = async (name: string, input: Promise<unknown>) => {
      const error = await input.then(() => null, (e: Error) => e.message);
      expect(error, name).toContain(name);
      return error!;
    };
    expect(await refused('setup.exe', call('startUpload', { name: 'setup.exe', size: 1000, mediaType: 'application/x-msdownload' }))).toMatch(/Claude cannot read/);
    expect(await refused('big.bin', call('startUpload', { name: 'big.bin', size: 40 * 1024 * 1024, mediaType: '' }))).toMatch(/40 MB; the limit is 30 MB/);
    const png = await plainPng(100, 100);
    expect(await refused('broken.png', upload('broken.png', png.subarray(0, png.length - 40)))).toMatch(/damaged/);
    expect(await refused('book.pdf', upload('book.pdf', await pdf(500)))).toMatch(/500 pages; Claude reads at most 100/);
    expect(await refused('tool', upload('tool', randomBytes(2000)))).toMatch(/not an image, a PDF or a text file/);
    expect(await refused('fake.png', upload('fake.png', Buffer.from('just text')))).toMatch(/not an image/);

    const images = await Promise.all(Array.from({ length: 21 }, async (_, i) => upload(`shot-${i}.png`, await plainPng(10 + i, 10))));
    const { id } = await call('newSession', {});
    const tooMany = await services.router('sendMessage', { sessionId: id, text: 'all', attachments: images.map(({ id, name }) => ({ id, name })) });
    expect(tooMany.ok === false && tooMany.error.message).toMatch(/At most 20 files can go with one message/);
    const unknown = await services.router('sendMessage', { sessionId: id, text: 'x', attachments: [{ id: 'f'.repeat(64), name: 'gone.png' }] });
    expect(unknown.ok === false && unknown.error.message).toMatch(/"gone.png" is no longer in Waypoint's data folder/);
    expect(api.requests).toHaveLength(0);
    expect((await call('getSession', { sessionId: id })).transcript).toEqual([]);
  });

  it('an upload is bounded: pieces in order, no more bytes than announced', async () => {
    await boot({ name: 'echo', turns: [] });
    const { uploadId } = await call('startUpload', { name: 'a.txt', size: 4, mediaType: 'text/plain' });
    await expect(call('uploadChunk', { uploadId, offset: 2, data: 'aGk=' })).rejects.toThrow(/piece arrived for byte 2/);
    await expect(call('uploadChunk', { uploadId, offset: 0, data: Buffer.from('hello').toString('base64') })).rejects.toThrow(/more bytes than the 4/);
    await expect(call('finishUpload', { uploadId })).rejects.toThrow(/unknown/);
    const bad = await services.router('uploadChunk', { uploadId: 'x', offset: 0, data: 'not base64!' });
    expect(bad.ok === false && bad.error.code).toBe('invalid_input');
  });

  it("an MCP tool's image (server-everything's get-tiny-image) reaches Claude as an image block and shows on the card", async () => {
    const require = createRequire(import.meta.url);
    const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
    await boot(
      {
        name: 'mcp-image',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'everything__get-tiny-image', id: 'toolu_img', input: {} }] },
          { kind: 'text', text: 'I see the MCP logo.' },
        ],
      },
      { everything: { command: process.execPath, args: [everything, 'stdio'], trusted: true } },
    );
    await waitFor('mcp_state', (e) => e.servers.some((s) => s.name === 'everything' && s.status === 'ready'), 60_000);
    const { id } = await call('newSession', {});
    await call('sendMessage', { sessionId: id, text: 'show me' });
    await waitFor('transcript_item', replyDone(/MCP logo/));
    const result = userBlocks(1, 2).find((b) => b.type === 'tool_result')!;
    const parts = result.content as Block[];
    expect(parts.map((p) => p.type)).toContain('image');
    expect(parts.find((p) => p.type === 'image')!.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(JSON.stringify(parts)).not.toContain('not shown');
    const card = (await call('getSession', { sessionId: id })).transcript.find((i) => i.kind === 'tool_call');
    expect(card?.kind === 'tool_call' && card.images?.[0]).toMatchObject({ kind: 'image', mediaType: 'image/png', width: 20, height: 20 });
  });
});
