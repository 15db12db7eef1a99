import { launchChromium, newPage } from './lib/browser';
import { withScope } from './lib/scoped';
import { startStack } from './lib/shell';
import { planLatencyScenario, PER_ROUND } from './plan-latency-scenario';
import { observePlanPanel, committedStates } from './plan-latency-page';
import { sleep } from './lib/stats';
await withScope(async (scope) => {
  const browser = scope.add(await launchChromium(), (b) => b.close());
  const { scripted, shell } = await startStack(scope, planLatencyScenario(5, 1));
  const page = await newPage(browser);
  await observePlanPanel(page, PER_ROUND);
  await page.goto(shell.url);
  await page.getByRole('textbox', { name: 'Message' }).fill('Run.');
  await page.getByRole('button', { name: 'Send' }).click();
  for (let i = 0; i < 3; i++) { await scripted.release(); await sleep(300); }
  console.log(await page.evaluate(() => document.querySelector('[aria-label="Task plan"]')?.outerHTML.slice(0, 1500)));
  console.log(await committedStates(page));
  console.log(await page.evaluate(() => typeof (window as any).__planStates));
  await page.context().close();
});
