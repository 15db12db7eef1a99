import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';

// Attachments as a person uses them (docs/contract.md §5 "Attachments"): "Attach files" opens the file
// picker, drop and paste work too, chips are listitems of the list "Attachments" with "Remove
// NAME", a refused file gets an alert naming it and why, and a sent message shows its files by
// name — after a reload and after a restart too.
test.describe.configure({ timeout: 120_000 });

const png = (width: number, height: number, colour = '#3366cc') => sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

async function pdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 300]).drawText(`Page ${i + 1}`);
  return Buffer.from(await doc.save());
}

/** Picks files through the file picker that "Attach files" opens. */
async function attach(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files', exact: true }).click();
  const picker = await chooser;
  expect(picker.isMultiple()).toBe(true);
  await picker.setFiles(files);
}

const chips = (page: Page) => page.getByRole('list', { name: 'Attachments', exact: true }).getByRole('listitem');

/** As a person waits for the chips to stop saying "uploading N%" before sending (Send refuses until then). */
const uploaded = (page: Page) => expect(page.getByRole('list', { name: 'Attachments', exact: true })).not.toContainText('uploading');

/** Puts files on the clipboard and pastes them into the message box, as a screenshot paste does. */
async function paste(page: Page, name: string, type: string, bytes: Buffer) {
  await page.getByRole('textbox', { name: 'Message', exact: true }).evaluate(
    (box, { name, type, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    { name, type, data: bytes.toString('base64') },
  );
}

async function drop(page: Page, name: string, type: string, bytes: Buffer) {
  const transfer = await page.evaluateHandle(
    ({ name, type, data }) => {
      const t = new DataTransfer();
      t.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type }));
      return t;
    },
    { name, type, data: bytes.toString('base64') },
  );
  const target = page.getByRole('log', { name: 'Conversation', exact: true });
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}

type Block = { type: string; source?: { type: string; media_type?: string }; text?: string };

test('attach → send → the files go to Claude and show by name; they are still there after a reload and a restart', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [] } });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    await attach(page, [
      { name: 'diagram.png', mimeType: 'image/png', buffer: await png(2400, 1200) },
      { name: 'spec.pdf', mimeType: 'application/pdf', buffer: await pdf(2) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Remember the milk.') },
    ]);
    await expect(chips(page)).toHaveCount(3);
    await expect(chips(page).filter({ hasText: 'diagram.png' })).toContainText('1568×784');
    await expect(chips(page).filter({ hasText: 'spec.pdf' })).toContainText('PDF, 2 pages');
    // A chip goes with its "Remove NAME" button.
    await page.getByRole('button', { name: 'Remove notes.txt', exact: true }).click();
    await expect(chips(page)).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Remove notes.txt', exact: true })).toHaveCount(0);

    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('What is in these?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('You said: What is in these?')).toBeVisible();
    await expect(chips(page)).toHaveCount(0);
    const sent = log.getByRole('list', { name: 'Attached files', exact: true });
    await expect(sent.getByText('diagram.png')).toBeVisible();
    await expect(sent.getByText('spec.pdf')).toBeVisible();
    await expect(sent.locator('img')).toHaveCount(1); // the image's preview
    const blocks = (scripted.requests[0]!.body as { messages: Array<{ content: Block[] }> }).messages[0]!.content;
    expect(blocks.map((b) => [b.type, b.source?.type ?? null])).toEqual([
      ['image', 'base64'],
      ['document', 'base64'],
      ['text', null],
    ]);

    await page.reload();
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByRole('list', { name: 'Attached files', exact: true }).getByText('diagram.png')).toBeVisible();

    const next = await shell.restart('kill');
    await page.goto(next.url);
    const again = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(again.getByRole('list', { name: 'Attached files', exact: true }).getByText('spec.pdf')).toBeVisible();
    await expect(again.getByRole('list', { name: 'Attached files', exact: true }).locator('img')).toHaveCount(1);
    // The next message still carries them to Claude.
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('And the second page?');
    await page.keyboard.press('Enter');
    await expect(again.getByText('You said: And the second page?')).toBeVisible();
    const later = (scripted.requests.at(-1)!.body as { messages: Array<{ content: Block[] }> }).messages[0]!.content;
    expect(later[0]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('a refused .exe gets an alert naming it and why; nothing is attached or sent', async ({ app, scripted }) => {
  await attach(app, [{ name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ\u0090\u0000binary') }]);
  const alert = app.getByRole('alert').filter({ hasText: 'setup.exe' });
  await expect(alert).toContainText('Claude cannot read');
  await expect(chips(app)).toHaveCount(0);
  // A damaged image passes the name check and is refused by main after the upload.
  const good = await png(64, 64);
  await attach(app, [{ name: 'broken.png', mimeType: 'image/png', buffer: good.subarray(0, good.length - 30) }]);
  await expect(app.getByRole('alert').filter({ hasText: 'broken.png' })).toContainText('damaged');
  await expect(chips(app)).toHaveCount(0);
  expect(scripted.requests).toHaveLength(0);
  await expectAccessibleInBothSchemes(app, 'composer with a refused file');
});

test.describe('paste and drop', () => {
  test.use({ scenario: { name: 'slow', gated: true, turns: [{ kind: 'text', text: 'First reply.' }, { kind: 'text', text: 'Second reply.' }] } });

  test('a screenshot pasted while Claude replies waits for the next message; a dropped file joins it', async ({ app, scripted }) => {
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Start');
    await app.keyboard.press('Enter');
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await paste(app, 'image.png', 'image/png', await png(300, 200, '#cc3333'));
    await expect(chips(app)).toHaveCount(1);
    await expect(chips(app).first()).toContainText(/Pasted image .*\.png/);
    await drop(app, 'readme.md', 'text/markdown', Buffer.from('# Hello\nFrom a drop.'));
    await expect(chips(app)).toHaveCount(2);
    await expect(app.getByRole('button', { name: 'Remove readme.md', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'composer with attachments while a reply streams');

    await scripted.release();
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('First reply.')).toBeVisible();
    // Nothing was lost to the reply: both wait in the composer, and go with the next message.
    await expect(chips(app)).toHaveCount(2);
    await uploaded(app);
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Here they are');
    await app.keyboard.press('Enter');
    await scripted.release();
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('Second reply.')).toBeVisible();
    const blocks = (scripted.requests[1]!.body as { messages: Array<{ content: Block[] }> }).messages[2]!.content;
    expect(blocks.map((b) => b.type)).toEqual(['image', 'text', 'text']);
    expect(blocks[1]!.text).toContain('From a drop.');
  });
});

test.describe("a tool's image and the export", () => {
  const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  test.use({
    scenario: {
      name: 'mcp-image',
      turns: [
        { kind: 'tool_use', text: 'Fetching the image.', calls: [{ name: 'everything__get-tiny-image', id: 'toolu_tiny', input: {} }] },
        { kind: 'text', text: 'It is the MCP logo.' },
      ],
    },
    mcpConfig: { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } },
  });

  test("an MCP tool's image reaches Claude as an image and shows on the tool card; Export chat holds the files", async ({ app, scripted }) => {
    // As a user would: see the server ready in Settings before asking for its tool.
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = app.getByRole('dialog', { name: 'Settings', exact: true });
    await expect(settings.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: 'everything' })).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await settings.getByRole('button', { name: 'Cancel', exact: true }).click();
    await attach(app, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Remember the milk.') }]);
    await expect(chips(app)).toHaveCount(1);
    await uploaded(app);
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Show me the tiny image');
    await app.keyboard.press('Enter');
    // The call waits for approval like any untrusted MCP tool's.
    const approval = app.getByRole('alertdialog', { name: /Approve/ });
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('It is the MCP logo.')).toBeVisible();
    const images = log.getByRole('list', { name: 'Images from everything__get-tiny-image', exact: true });
    await expect(images.locator('img')).toHaveCount(1);
    await expect(images.locator('img')).toHaveJSProperty('complete', true);
    expect(await images.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    const result = (scripted.requests[1]!.body as { messages: Array<{ content: Array<{ type: string; content?: Block[] }> }> }).messages[2]!.content[0]!;
    expect(result.type).toBe('tool_result');
    expect(result.content!.find((b) => b.type === 'image')).toMatchObject({ source: { type: 'base64', media_type: 'image/png' } });
    expect(JSON.stringify(result.content)).not.toContain('not shown');

    const download = app.waitForEvent('download');
    await app.getByRole('button', { name: 'Export chat', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.md$/);
    const markdown = readFileSync(await file.path(), 'utf8');
    expect(markdown).toContain('Show me the tiny image');
    expect(markdown).toContain('Remember the milk.');
    expect(markdown).toContain('It is the MCP logo.');
    // The name is escaped for Markdown (its underscores would start emphasis): `everything\_\_get-…`.
    expect(markdown).toMatch(/!\[everything\\_\\_get-tiny-image-image-1\.png\]\(data:image\/png;base64,[A-Za-z0-9+/]+=*\)/);
  });
});
