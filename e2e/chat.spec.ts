import { test, expect } from './support/fixtures';

const LONG_REPLY =
  '## Streaming works\n\nHere is a list:\n\n- one\n- two\n\n```ts\nconst answer: number = 42;\n```\n\n' +
  'And a long tail of text so the stream takes a little while. '.repeat(12) +
  'THE END.';

test.describe('chat', () => {
  test.use({
    scenario: {
      name: 'chat-basic',
      turns: [{ kind: 'text', text: LONG_REPLY, chunkChars: 6, delayMs: 15 }],
    },
  });

  test('a reply streams in token by token and renders markdown', async ({ app, scripted }) => {
    const input = app.getByRole('textbox', { name: 'Message', exact: true });
    await input.fill('Show me streaming');
    await app.getByRole('button', { name: 'Send', exact: true }).click();

    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('Show me streaming')).toBeVisible();
    // While streaming, Stop is offered and only part of the text is there.
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await expect(log.getByRole('heading', { name: 'Streaming works', exact: true })).toBeVisible();
    await expect(log.getByText('THE END.')).toHaveCount(0);
    // Then the whole reply, rendered as markdown, and Stop goes away.
    await expect(log.getByText('THE END.', { exact: false })).toBeVisible({ timeout: 20_000 });
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    await expect(log.getByRole('listitem').filter({ hasText: 'two' })).toBeVisible();
    await expect(log.locator('pre code')).toContainText('const answer: number = 42;');
    // The code is one text node, coloured by CSS highlights (markdown/code-highlights.ts): which words each colour covers.
    // A block mounted before its code was highlighted takes its colours in the next idle period.
    const coloured = () =>
      log.locator('pre code').evaluate((code) =>
        [...CSS.highlights]
          .flatMap(([name, highlight]) =>
            [...highlight].filter((range) => code.contains(range.startContainer)).map((range) => `${name}: ${(range.startContainer as Text).data.slice(range.startOffset, range.endOffset)}`),
          )
          .sort(),
      );
    await expect.poll(coloured).toEqual(['hl-builtin: number', 'hl-keyword: const', 'hl-number: 42', 'hl-number: answer']);
    expect(await log.locator('pre code span').count()).toBe(0);
    await expect(input).toHaveValue('');
    expect(scripted.requests).toHaveLength(1);
    expect(JSON.stringify(scripted.requests[0]!.body)).toContain('Show me streaming');
  });

  test('Stop cancels a reply at once and keeps what arrived', async ({ app }) => {
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Start talking');
    await app.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByRole('heading', { name: 'Streaming works', exact: true })).toBeVisible();
    await app.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0, { timeout: 3_000 });
    await expect(log.getByText(/stopped/i).first()).toBeVisible();
    // Nothing more arrives after the stop.
    await app.waitForTimeout(500);
    await expect(log.getByText('THE END.')).toHaveCount(0);
  });
});

test.describe('new chat', () => {
  test.use({
    scenario: {
      name: 'two-chats',
      turns: [{ kind: 'text', text: 'First answer.' }, { kind: 'text', text: 'Second answer.' }],
    },
  });

  test('New chat starts a fresh conversation and the old one stays listed', async ({ app }) => {
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Question one');
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(log.getByText('First answer.')).toBeVisible();

    await app.getByRole('button', { name: 'New chat', exact: true }).click();
    await expect(log.getByText('First answer.')).toHaveCount(0);
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Question two');
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(log.getByText('Second answer.')).toBeVisible();

    // The first chat is still there, by its title, and opens with its own transcript.
    await app.getByRole('button', { name: /Question one/ }).click();
    await expect(log.getByText('First answer.')).toBeVisible();
    await expect(log.getByText('Second answer.')).toHaveCount(0);
  });
});

test.describe('errors', () => {
  test.use({ scenario: { name: 'bad-key', turns: [{ kind: 'fault', fault: 'unauthorized' }] } });

  test('a rejected key ends the run with a clear message, not a blank screen', async ({ app }) => {
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello?');
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    const alert = app.getByRole('log', { name: 'Conversation', exact: true }).getByRole('alert');
    await expect(alert).toContainText(/API key/i);
    await expect(alert).toContainText(/Settings/);
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeEnabled();
  });

  test('an empty message cannot be sent and a huge paste is refused clearly', async ({ app, scripted }) => {
    const input = app.getByRole('textbox', { name: 'Message', exact: true });
    await input.fill('   ');
    await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    const huge = 'x'.repeat(600_000);
    await input.fill(huge);
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(app.getByRole('alert').filter({ hasText: /too long/i })).toBeVisible();
    // Nothing was lost and nothing was sent.
    await expect(input).toHaveValue(huge);
    expect(scripted.requests).toHaveLength(0);
  });
});

test.describe('onboarding', () => {
  test.use({ apiKey: null, scenario: { name: 'after-onboarding', turns: [{ kind: 'text', text: 'Welcome aboard.' }] } });

  test('without a key the app asks for one, then chats', async ({ app, scripted }) => {
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toHaveCount(0);
    await app.getByLabel('API key').fill('sk-ant-onboarding-key-123');
    await expect(app.getByLabel('Model')).toBeVisible();
    await app.getByRole('button', { name: 'Save and start', exact: true }).click();

    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Hi');
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('Welcome aboard.')).toBeVisible();
    const headers = scripted.requests[0]!.headers;
    expect(headers['x-api-key'] ?? headers['authorization']).toContain('sk-ant-onboarding-key-123');
    // The key never reaches the page.
    expect(await app.content()).not.toContain('sk-ant-onboarding-key-123');
  });
});

test.describe('a long reply with many code blocks', () => {
  const block = (n: number) => `Step ${n}:\n\n\`\`\`ts\nconst step${n} = "value ${n}"; // note ${n}\n\`\`\`\n`;
  test.use({ scenario: { name: 'many-code-blocks', turns: [{ kind: 'text', text: `${Array.from({ length: 60 }, (_, n) => block(n)).join('\n')}\nAll steps listed.` }] } });

  test('colours only the code near the view, and the rest as it is scrolled to', async ({ app }) => {
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('List the steps');
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('All steps listed.')).toBeVisible();
    await expect(log.locator('pre code')).toHaveCount(60); // one reply, one row: every block is in the DOM
    // Which blocks hold coloured ranges (CSS highlights), by the step their code names.
    const colouredSteps = () =>
      log.evaluate((el) => {
        const steps = new Set<number>();
        for (const highlight of CSS.highlights.values())
          for (const range of highlight) if (el.contains(range.startContainer)) steps.add(Number(/const step(\d+)/.exec((range.startContainer as Text).data)?.[1]));
        return [...steps].sort((a, b) => a - b);
      });
    await expect.poll(colouredSteps).toContain(59);
    const atEnd = await colouredSteps();
    expect(atEnd.length).toBeLessThan(30); // not the blocks far above the view
    expect(atEnd).not.toContain(0);
    await log.evaluate((el) => el.scrollTo({ top: 0, behavior: 'instant' }));
    await expect.poll(colouredSteps).toContain(0);
    expect(await colouredSteps()).not.toContain(59);
  });
});
