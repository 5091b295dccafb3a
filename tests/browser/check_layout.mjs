#!/usr/bin/env node
// Checks an sdperf HTML page (report.html or diff.html) on a phone and on
// paper, in headless Chromium (issue 14):
//
//   node check_layout.mjs PAGE.html OUT_DIR [--waste PCT]
//
// Phone (390x844, JavaScript on): the page does not scroll sideways (wide
// tables scroll inside their own box), and every text that is rendered is
// at least 11 CSS px tall: the computed font-size, times the scale of any
// SVG it sits in (an SVG chart shrunk to the phone's width shrinks its
// text with it); and no figure (a chart) scrolls sideways inside itself.
//
// Paper (page.pdf, A4, the page's own @page margins): the page count stays
// within the content's own height plus the allowed waste. The bound comes
// from the page itself, not from a number written here: the page is laid
// out under print media at the printable width, its height divided by the
// printable height gives the pages a perfect flow would fill; breaks that
// keep headings with their content and short tables whole cost some of
// each page, and --waste PCT (default 15) is how much of the whole that
// may be, plus one page for the last one's remainder. 15% because the
// examples' reports, laid out with those rules, waste 5-14% (the 1-card
// report 11 pages for 10.5 pages of content, 4 cards 15 for 13.2): the
// issue's 11 pages with a half-empty page and one holding only the footer
// were about 25%. Every table is also checked to fit the paper's width
// (Chromium would otherwise shrink every page to the widest). Then, from
// `pdftotext -bbox` of the printed PDF, no page ends with a heading: the
// last text line of a page is never a heading's text (or the end of a
// heading that wrapped), the footer is printed on the last page, and that
// page holds more than the footer.
// Prints "ok ..." / "FAIL ..." lines, then
// "N passed, M failed"; exits 0 only if nothing failed (2: usage error).

import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS, TIMEOUT_MS } from './browser_common.mjs';

const USAGE = 'usage: node check_layout.mjs PAGE.html OUT_DIR [--waste PCT]';
const PHONE = { width: 390, height: 844 };
const MIN_TEXT_PX = 11;
const MM = 96 / 25.4; // CSS px per millimetre
const A4 = { w: 210, h: 297 };

let passed = 0;
let failed = 0;
function check(ok, what, details = []) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
  if (!ok) for (const d of details.slice(0, 12)) console.log(`    ${d}`);
}

function usage(msg) {
  if (msg) process.stderr.write(`check_layout: ${msg}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { page: null, outDir: null, waste: 15 };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--waste') {
      o.waste = Number(argv[++i]);
      if (!(o.waste >= 0 && o.waste < 100)) usage('bad --waste');
    } else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
    else rest.push(argv[i]);
  }
  if (rest.length !== 2) usage();
  [o.page, o.outDir] = rest;
  return o;
}

// In the page: the text that is rendered smaller than min px, as
// "size px: text" lines. An element counts when it has a text node of its
// own that is not blank and it has a box (closed <details> content and
// display:none have none).
function smallText(min) {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent.trim()) continue;
    seen.add(el);
    if (el.closest('script, style, title')) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    if (range.getClientRects().length === 0) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    let px = parseFloat(cs.fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      if (m) px *= Math.hypot(m.a, m.b);
    }
    if (px < min - 0.05) out.push(`${px.toFixed(1)} px: ${n.textContent.trim().slice(0, 60)}`);
  }
  return out;
}

async function phone(browser, url, outDir) {
  const page = await browser.newPage({ viewport: PHONE, deviceScaleFactor: 1 });
  await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT_MS });
  const w = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    wide: Array.from(document.querySelectorAll('body *'))
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.right > document.documentElement.clientWidth + 1 &&
          !e.parentElement.closest('.table-scroll, pre');
      })
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`),
  }));
  check(w.scroll <= w.client, `phone ${PHONE.width} px: no sideways page scroll (scrollWidth ${w.scroll}, width ${w.client})`, w.wide);
  // a chart fits the phone: no figure scrolls sideways inside itself
  // (each chart has a drawing for the phone's column, svg.narrow)
  const scrolls = await page.evaluate(() => Array.from(document.querySelectorAll('figure'))
    .filter((f) => f.getBoundingClientRect().width > 0 && f.scrollWidth > f.clientWidth + 1)
    .map((f) => `figure.${f.className} in #${(f.closest('section[id]') || { id: '?' }).id}: ` +
      `scrollWidth ${f.scrollWidth}, width ${f.clientWidth}`));
  check(scrolls.length === 0, `phone ${PHONE.width} px: no figure scrolls sideways (${scrolls.length} do)`, scrolls);
  const small = await page.evaluate(smallText, MIN_TEXT_PX);
  check(small.length === 0, `phone ${PHONE.width} px: every rendered text >= ${MIN_TEXT_PX} px (${small.length} smaller)`, small);
  await page.screenshot({ path: join(outDir, 'phone.png'), fullPage: true });
  await page.close();
}

// The page's @page margins as millimetres {top, right, bottom, left}, read
// from its style sheets (the default 10 mm where it names none).
async function pageMargins(page) {
  return page.evaluate(() => {
    const mm = { top: 10, right: 10, bottom: 10, left: 10 };
    const toMm = (v) => {
      const m = /^([\d.]+)(mm|cm|in|px|pt)$/.exec(v.trim());
      if (!m) return null;
      const k = { mm: 1, cm: 10, in: 25.4, px: 25.4 / 96, pt: 25.4 / 72 }[m[2]];
      return Number(m[1]) * k;
    };
    for (const sheet of document.styleSheets) {
      const walk = (rules) => {
        for (const r of rules) {
          if (r.type === CSSRule.PAGE_RULE) {
            for (const side of ['top', 'right', 'bottom', 'left']) {
              const v = toMm(r.style.getPropertyValue(`margin-${side}`));
              if (v !== null) mm[side] = v;
            }
          } else if (r.cssRules) walk(r.cssRules);
        }
      };
      walk(sheet.cssRules);
    }
    return mm;
  });
}

// pdftotext -bbox's words of each page, as lines of text: words whose
// tops are within 2 pt of each other share a line. Returns [[line, ...]].
function pdfLines(pdf) {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const pages = [];
  for (const p of html.split(/<page /).slice(1)) {
    const words = [];
    for (const m of p.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g))
      words.push({ x: Number(m[1]), y: Number(m[2]), t: m[3] });
    words.sort((a, b) => a.y - b.y || a.x - b.x);
    const lines = [];
    for (const w of words) {
      const last = lines[lines.length - 1];
      if (last && Math.abs(last.y - w.y) <= 2) last.words.push(w);
      else lines.push({ y: w.y, words: [w] });
    }
    pages.push(lines.map((l) => l.words.sort((a, b) => a.x - b.x).map((w) => w.t).join(' ')));
  }
  return pages;
}

const squash = (s) => s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"').replace(/\s+/g, '');

async function paper(browser, url, outDir, waste) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT_MS });
  await page.emulateMedia({ media: 'print' });
  const mm = await pageMargins(page);
  const printable = {
    w: Math.floor((A4.w - mm.left - mm.right) * MM),
    h: Math.floor((A4.h - mm.top - mm.bottom) * MM),
  };
  await page.setViewportSize({ width: printable.w, height: printable.h });
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  // wider than the paper, Chromium would shrink every page to fit it
  const wide = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > w + 1)
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`);
  });
  check(wide.length === 0, `print: everything fits the printable width (${printable.w} px)`, wide);
  const headings = await page.evaluate(() =>
    Array.from(document.querySelectorAll('h1, h2, h3, h4')).map((h) => h.textContent));
  const footer = await page.evaluate(() => {
    const f = document.querySelector('main > section:last-of-type > footer, body > footer');
    return f ? f.innerText : '';
  });
  const pdf = join(outDir, 'print.pdf');
  await page.pdf({ path: pdf, format: 'A4', preferCSSPageSize: true, printBackground: true });
  await page.close();
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)[1]);
  const ideal = height / printable.h;
  const bound = Math.ceil(ideal / (1 - waste / 100)) + 1;
  check(pages <= bound, `print: ${pages} pages, content fills ${ideal.toFixed(2)}; at most ${bound} (${waste}% waste + 1)`);
  const heads = headings.map(squash).filter((h) => h.length >= 4);
  const lines = pdfLines(pdf);
  const stranded = [];
  lines.forEach((p, i) => {
    if (i === lines.length - 1 || p.length === 0) return;
    // the last line is a heading, or the end of one that wrapped (with
    // the line before it: a table cell that wraps "(transformer)" is not)
    const last = squash(p[p.length - 1]);
    const two = p.length > 1 ? squash(p[p.length - 2]) + last : last;
    if (last.length >= 4 && heads.some((h) => h === last || (h.endsWith(two) && two !== last)))
      stranded.push(`page ${i + 1} ends with heading "${p[p.length - 1]}"`);
  });
  check(stranded.length === 0, `print: no page of ${lines.length} ends with a heading`, stranded);
  // the footer (version, inputs' provenance) is on paper too, on the
  // last page
  const printed = squash(lines.length ? lines[lines.length - 1].join('') : '');
  const foot = squash(footer).slice(0, 60);
  check(foot.length > 0 && printed.includes(foot), 'print: the footer is printed, on the last page',
    [`footer "${footer.slice(0, 60)}"`]);
  const lastPage = printed;
  check(lines.length < 2 || !squash(footer).includes(lastPage),
    'print: the last page holds more than the footer', [`it holds "${lastPage.slice(0, 80)}"`]);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  try {
    if (!statSync(o.page).isFile()) usage(`${o.page} is not a file`);
  } catch {
    usage(`cannot read ${o.page}`);
  }
  mkdirSync(o.outDir, { recursive: true });
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    check(false, 'load playwright-core (run `npm ci` in tests/browser)', [String(e.message || e)]);
  }
  if (chromium) {
    const browser = await chromium.launch({
      executablePath: process.env.SDPERF_CHROMIUM || '/usr/bin/chromium',
      headless: true, args: CHROMIUM_ARGS, chromiumSandbox: false, timeout: TIMEOUT_MS,
    });
    const url = pathToFileURL(resolve(o.page)).href;
    try {
      await phone(browser, url, o.outDir);
      await paper(browser, url, o.outDir, o.waste);
    } catch (e) {
      check(false, 'the checks ran', [String(e.stack || e)]);
    } finally {
      await browser.close();
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
