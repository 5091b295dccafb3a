#!/usr/bin/env node
// Checks the executive summary and the compact passing checks of a
// report.html in headless Chromium (issue 13 §1, §6):
//
//   node check_summary.mjs REPORT.html --fired N --passing N [--text SEL=TEXT]...
//
// At 1280x800 every part of the summary box (#summary: end-to-end time,
// findings, stage bar and legend, top action, trust) lies inside the first
// viewport, without scrolling. At 390x844 (a phone) the summary does not
// scroll sideways and its parts fit the width. The report has N
// fired verdict cards and N passing checks, each a closed <details> whose
// one line holds its value and threshold and expands to the
// recommendation. --text: the element's text contains TEXT.
// JavaScript is off (the summary must not need it). Prints ok/FAIL lines;
// exits 0 only when nothing failed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TIMEOUT_MS, blockRequests, launchBrowser } from './browser_common.mjs';

const PARTS = ['#summary', '#summary .sum-e2e', '#summary .sum-findings', '#summary .sum-bar',
  '#summary .sum-legend', '#summary .sum-top', '#summary .sum-trust'];

let failed = 0;
let passed = 0;
function check(cond, what, detail) {
  if (cond) {
    passed++;
    console.log(`ok   ${what}`);
  } else {
    failed++;
    console.log(`FAIL ${what}${detail ? `: ${detail}` : ''}`);
  }
}

function parseArgs(argv) {
  const o = { texts: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--fired') o.fired = Number(argv[++i]);
    else if (a === '--passing') o.passing = Number(argv[++i]);
    else if (a === '--text') {
      const spec = argv[++i];
      const k = spec.indexOf('=');
      o.texts.push({ sel: spec.slice(0, k), text: spec.slice(k + 1) });
    } else o.report = resolve(a);
  }
  if (!o.report || Number.isNaN(o.fired) || Number.isNaN(o.passing)) {
    process.stderr.write('usage: node check_summary.mjs REPORT.html --fired N --passing N [--text SEL=TEXT]...\n');
    process.exit(2);
  }
  return o;
}

async function firstScreen(page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const sel of PARTS) {
    const box = await page.locator(sel).first().boundingBox();
    check(box && box.y >= 0 && box.y + box.height <= 800 && box.x + box.width <= 1280,
      `1280x800: ${sel} in the first viewport`, box ? JSON.stringify(box) : 'missing');
  }
  const scroll = await page.evaluate(() => window.scrollY);
  check(scroll === 0, '1280x800: not scrolled', String(scroll));
}

async function phone(page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const sw = await page.evaluate(() => {
    const el = document.querySelector('#summary');
    return el ? [el.scrollWidth, el.clientWidth] : [1, 0];
  });
  check(sw[0] <= sw[1], '390 px: the summary does not scroll sideways', `${sw[0]} > ${sw[1]}`);
  for (const sel of PARTS) {
    const box = await page.locator(sel).first().boundingBox();
    check(box && box.x >= 0 && box.x + box.width <= 390, `390 px: ${sel} fits the width`,
      box ? JSON.stringify(box) : 'missing');
  }
}

async function findings(page, o) {
  check((await page.locator('.verdict-card').count()) === o.fired, `${o.fired} fired verdict cards`,
    String(await page.locator('.verdict-card').count()));
  check((await page.locator('.verdict-card:not(.fired)').count()) === 0, 'no card for a passing check');
  const lines = page.locator('ul.checks li.check');
  check((await lines.count()) === o.passing, `${o.passing} passing checks`, String(await lines.count()));
  check((await page.locator('ul.checks li.check details[open]').count()) === 0,
    'passing checks are closed');
  for (let i = 0; i < (await lines.count()); i++) {
    const li = lines.nth(i);
    const rec = li.locator('p.rec');
    check(!(await rec.isVisible()), `passing check ${i}: recommendation hidden until opened`);
    const h = (await li.locator('summary').boundingBox()).height;
    check(h < 40, `passing check ${i}: one line`, `${h} px`);
    await li.locator('summary').click();
    check(await rec.isVisible(), `passing check ${i}: recommendation shown when opened`);
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'sdperf-chromium-'));
  const pageUrl = pathToFileURL(o.report).href;
  const blocked = [];
  let context;
  try {
    context = await launchBrowser(chromium, profile,
      process.env.SDPERF_CHROMIUM || '/usr/bin/chromium', false);
    await blockRequests(context, pageUrl, blocked);
    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(pageUrl, { waitUntil: 'load' });
    await firstScreen(page);
    for (const t of o.texts) {
      const got = (await page.locator(t.sel).first().textContent()) || '';
      check(got.replace(/\s+/g, ' ').includes(t.text), `${t.sel} contains "${t.text}"`, got.trim());
    }
    await phone(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await findings(page, o);
    check(blocked.length === 0, 'nothing fetched', blocked.join(', '));
  } finally {
    if (context) await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAIL ${e.message || e}`);
  process.exit(1);
});
