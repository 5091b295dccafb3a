#!/usr/bin/env node
// The README's screenshots of an HTML report, in headless Chromium:
//
//   node screenshots.mjs REPORT.html OUT_DIR
//
// OUT_DIR/report-en.png: the first 1500 px of the page at 1100 px wide
// (a desktop window); OUT_DIR/report-phone.png: the first two screens of
// a 390x844 phone. JavaScript on, every request but the page's own
// aborted, as in the browser tests. Run by tools/screenshots.sh.

import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS, TIMEOUT_MS } from './browser_common.mjs';

const [page, outDir] = process.argv.slice(2);
if (!page || !outDir) {
  process.stderr.write('usage: node screenshots.mjs REPORT.html OUT_DIR\n');
  process.exit(2);
}
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: process.env.SDPERF_CHROMIUM || '/usr/bin/chromium',
  headless: true, args: CHROMIUM_ARGS, chromiumSandbox: false, timeout: TIMEOUT_MS,
});
const url = pathToFileURL(resolve(page)).href;
const shots = [
  { file: 'report-en.png', viewport: { width: 1100, height: 1500 } },
  { file: 'report-phone.png', viewport: { width: 390, height: 1688 } },
];
try {
  for (const s of shots) {
    const p = await browser.newPage({ viewport: s.viewport, deviceScaleFactor: 1 });
    await p.route((u) => u.href !== url && !u.href.startsWith('data:'), (r) => r.abort());
    await p.goto(url, { waitUntil: 'load', timeout: TIMEOUT_MS });
    await p.screenshot({ path: join(outDir, s.file) });
    console.log(join(outDir, s.file));
    await p.close();
  }
} finally {
  await browser.close();
}
