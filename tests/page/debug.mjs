// Manual look: node tests/page/debug.mjs [width] [hash] [lang] -> prints problems, writes target/screenshots/debug.png
import { start, stop } from './server.mjs';
import { launch } from './browser.mjs';
const [width = '1280', hash = '', locale = 'en-US', sel = 'body'] = process.argv.slice(2);
const base = await start();
const browser = await launch();
const context = await browser.newContext({ viewport: { width: +width, height: 900 }, locale });
const page = await context.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('requestfailed', (r) => console.log('failed', r.url()));
await page.goto(base + hash);
try { await page.waitForSelector('html[data-ready="true"]', { timeout: 15000 }); console.log('ready'); } catch { console.log('NOT READY'); }
await page.locator(sel).first().screenshot({ path: 'target/screenshots/debug.png' });
// Tall sections also come in 1000px slices: debug-0.png, debug-1.png, …
const box = await page.locator(sel).first().boundingBox();
const scrollY = await page.evaluate(() => window.scrollY);
for (let i = 0, y = box.y + scrollY; y < box.y + scrollY + box.height; i++, y += 1000) {
  const height = Math.min(1000, box.y + scrollY + box.height - y);
  await page.screenshot({ path: `target/screenshots/debug-${i}.png`, fullPage: true, clip: { x: 0, y, width: +width, height } });
}
await browser.close();
await stop();
