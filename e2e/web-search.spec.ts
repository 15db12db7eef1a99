import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';

// Web search as a person uses it (docs/contract.md "Web search"): off by default, so the first
// request offers no web_search; Settings "Web search" on, the next request offers the API's
// server tool with "Web searches per request" as its max_uses, and the reply shows the search as a
// card with its results (links) and the pages it cites under "Sources".
test.describe.configure({ timeout: 120_000 });

const NODE = { title: 'Node.js 20 is out', url: 'https://nodejs.org/en/blog/release/v20.0.0', pageAge: 'April 18, 2023', text: 'Node.js 20 ships a stable test runner.' };
const V8 = { title: 'V8 release notes', url: 'https://v8.dev/blog', text: 'V8 11.3 brings faster startup.' };

test.describe('web search', () => {
  test.use({
    scenario: {
      name: 'web-search',
      turns: [
        { kind: 'text', text: 'No search offered, none made.' },
        {
          kind: 'web_search',
          text: 'Let me look that up.',
          searches: [{ query: 'Node.js 20 release notes', results: [NODE, V8] }],
          answer: [{ text: ' Node 20 has a stable test runner.', cite: [{ search: 0, result: 0 }] }],
          chunkChars: 6,
          delayMs: 5,
        },
      ],
    },
  });

  test('turned on in Settings, a question shows the search card with its results and the reply its sources', async ({ app, scripted }) => {
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    const composer = app.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill('Hello');
    await app.keyboard.press('Enter');
    await expect(log.getByText('No search offered, none made.')).toBeVisible();
    expect(JSON.stringify((scripted.requests[0]!.body as { tools?: unknown }).tools ?? [])).not.toContain('web_search');

    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings', exact: true });
    const webSearch = dialog.getByRole('checkbox', { name: 'Web search', exact: true });
    await expect(webSearch).not.toBeChecked();
    await webSearch.check();
    const perRequest = dialog.getByRole('spinbutton', { name: 'Web searches per request', exact: true });
    await expect(perRequest).toHaveValue('5');
    // Outside 1–20 is refused in the field, and nothing is saved.
    await perRequest.fill('21');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog.getByText("Web searches per request can't be more than 20: enter a number from 1 to 20.")).toBeVisible();
    await expect(perRequest).toHaveAttribute('aria-invalid', 'true');
    await perRequest.fill('3');
    await expectAccessibleInBothSchemes(app, 'settings with web search');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    await composer.fill('What is new in Node 20?');
    await app.keyboard.press('Enter');
    await expect(log.getByText('Node 20 has a stable test runner.')).toBeVisible();
    const tools = (scripted.requests[1]!.body as { tools?: Array<Record<string, unknown>> }).tools ?? [];
    expect(tools.at(-1)).toMatchObject({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 });

    await expect(log.getByRole('button', { name: /Searched the web for "Node.js 20 release notes"/ })).toBeVisible();
    const results = log.getByRole('list', { name: 'Results of the web search for "Node.js 20 release notes"', exact: true });
    await expect(results.getByRole('link', { name: NODE.title })).toHaveAttribute('href', NODE.url);
    await expect(results.getByRole('link', { name: V8.title })).toHaveAttribute('href', V8.url);
    await expect(results).toContainText('April 18, 2023');
    const sources = log.getByRole('list', { name: 'Sources', exact: true });
    await expect(sources.getByRole('link', { name: NODE.title })).toHaveAttribute('href', NODE.url);
    await expectAccessibleInBothSchemes(app, 'a reply with a web search and its sources');

    // The card and the sources are in the chat's log: a reload shows them again.
    await app.reload();
    const again = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(again.getByRole('list', { name: 'Sources', exact: true }).getByRole('link', { name: NODE.title })).toBeVisible();
    await expect(again.getByRole('list', { name: 'Results of the web search for "Node.js 20 release notes"', exact: true }).getByRole('link')).toHaveCount(2);
  });
});
