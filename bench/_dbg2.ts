import { launchChromium, newPage, clockOffset } from './lib/browser';
import { withScope } from './lib/scoped';
import { sleep } from './lib/stats';
await withScope(async (scope) => {
  const browser = scope.add(await launchChromium(), (b) => b.close());
  const page = await newPage(browser);
  await page.goto('about:blank');
  for (let i = 0; i < 5; i++) { console.log((await clockOffset(page)).toFixed(2)); await sleep(1000); }
  const page2 = await newPage(browser);
  await page2.goto('about:blank');
  console.log('page2', (await clockOffset(page2)).toFixed(2));
});
