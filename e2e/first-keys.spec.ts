import { expect, test } from './support/fixtures';

// The window shows before its first chat is open (renderer/src/store/connect.ts): what is typed
// or pasted the moment the message box appears must stay there. With no chat yet, the box was
// replaced by the new chat's a moment later and a paste made in between was lost (2 of 8 starts).
test('a paste made the moment the message box appears stays in it, and Send takes it', async ({ app }) => {
  const box = app.getByRole('textbox', { name: 'Message', exact: true });
  const pasted = `Please read this log:\n${'a line of the build log\n'.repeat(2000)}`;
  await box.evaluate((el, value) => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, pasted);
  await app.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('listitem').first().waitFor();
  await expect(box).toHaveValue(pasted);
  await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
});
