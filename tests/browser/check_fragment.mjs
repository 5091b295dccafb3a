#!/usr/bin/env node
// Checks a wiki fragment (sdperf report/diff -f fragment) in headless
// Chromium (issue 15 §3):
//
//   node check_fragment.mjs FRAGMENT.html OUT_DIR [--lang en|zh]
//
// The file: one root element, div.sdperf-report (with lang), and no
// <!DOCTYPE>, <html>, <head>, <body>, <meta>, <link> or <script>; every
// link is absolute or an in-page "#sdperf-..." that finds its target, and
// every id starts with "sdperf-"; the page requests nothing.
//
// The stylesheet, as Chromium's own CSS parser reads it (CSSOM): every
// style rule, in and out of @media and @supports blocks, selects only inside
// the root (each selector of each list starts with .sdperf-report), and
// there is no @page or @import.
//
// The layout holds in a hostile page: the fragment is pasted into two host
// pages, a blank one and one whose stylesheet sets global rules on table,
// th/td, h1-h4, svg, a, p, ul, li, code, div, *, body and a few class names
// the report uses (HOSTILE_CSS). At 1280 and 390 px wide, the key elements
// (the root, the summary box, headings, tables and cells, charts, cards,
// links, code) have the same size, position in the root (within TOL_PX),
// font size, display and text-transform in both pages. The hostile sheet is
// shown to bite: the host's own elements take its rules, and with the
// fragment's reset rules (the ones with "all: revert") deleted the same
// comparison finds differences. At 390 px neither page scrolls sideways.
// Screenshots of the hostile page go to OUT_DIR.
// Prints "ok ..." / "FAIL ..." lines, then "N passed, M failed"; exits 0
// only if nothing failed (2: usage error).

import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, TIMEOUT_MS } from './browser_common.mjs';

const USAGE = 'usage: node check_fragment.mjs FRAGMENT.html OUT_DIR [--lang en|zh]';
const WIDTHS = [1280, 390];
const TOL_PX = 3;
const ROOT = 'sdperf-report';

// Global rules a wiki's theme might have, made as loud as possible: none
// of them uses !important or an id (no stylesheet inside a page can stand
// against those).
const HOSTILE_CSS = `
* { box-sizing: content-box; line-height: 3; }
html { font-size: 10px; }
body { font: 30px/3 serif; color: green; text-align: center;
       text-transform: uppercase; letter-spacing: 2px; word-spacing: 8px;
       white-space: nowrap; }
div { padding: 4px; margin: 2px; }
table { width: 50px; border: 5px solid red; font-size: 30px; border-collapse: separate;
        border-spacing: 10px; table-layout: fixed; margin: 30px; }
th, td { padding: 40px; border: 3px dashed blue; text-align: center; vertical-align: middle; }
h1, h2, h3, h4 { font-size: 60px; text-transform: uppercase; display: inline; margin: 50px;
                 padding: 20px; font-family: serif; font-weight: 100; }
h2 { font-size: 60px; text-transform: uppercase; display: inline; }
svg { width: 10px; height: 10px; display: block; margin: 30px; }
a { color: red; font-size: 25px; display: block; padding: 10px; }
p { margin: 40px 0; font-size: 22px; text-indent: 30px; }
ul, ol { padding: 0 0 0 80px; list-style: square; margin: 30px; }
li { margin: 20px; }
code { font-size: 30px; background: yellow; padding: 10px; white-space: pre; }
section, header, footer, nav, main, figure, details, summary, dl, dd, dt { margin: 25px; padding: 15px; }
span, strong { font-size: 20px; }
.summary, .meta { display: none; }
.badge, .small { font-size: 40px; }
.wiki-content table, .wiki-content h2 { margin: 70px; font-size: 45px; }
`;

// The elements compared, at most PER_SELECTOR of each.
const KEYS = [
  ':scope', '#sdperf-summary', 'h1', 'h2', 'h3', 'nav', 'nav a', 'dl', 'table',
  'th', 'td', 'svg.chart', '.verdict-card', '.badge', 'ul', 'li', 'p', 'code',
  'a[href^="https:"]', 'figure', 'details > summary', 'footer', '.fragment-note',
  '.speedup', '.table-scroll',
];
const PER_SELECTOR = 6;

let passed = 0;
let failed = 0;
function check(ok, what, details = []) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
  if (!ok) for (const d of details.slice(0, 12)) console.log(`    ${d}`);
}

function usage(msg) {
  if (msg) process.stderr.write(`check_fragment: ${msg}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { file: null, outDir: null, lang: 'en' };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lang') o.lang = argv[++i];
    else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
    else rest.push(argv[i]);
  }
  if (rest.length !== 2) usage();
  [o.file, o.outDir] = rest;
  return o;
}

// A host page: the fragment inside a wiki-like content box, between the
// host's own heading, paragraph and table (the ones the hostile rules
// must reach, to show that they bite). The box is as wide in both pages
// (HOST_FRAME, which the hostile rules leave alone), so that the fragment
// has the same room in both.
const HOST_FRAME = 'body { margin: 0; } article.wiki-content { display: block; padding: 0 6px; }';
function hostPage(fragment, css) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>host</title><style>${HOST_FRAME}${css}</style></head>
<body><article class="wiki-content">
<h2 id="host-h2">Host</h2>
<p id="host-p">Host.</p>
${fragment}
<table id="host-table"><tr><td>host</td></tr></table>
</article></body></html>`;
}

// In the page: the root's style rules whose selectors reach outside it,
// and the at-rules that belong to the host page (CSSOM of the <style>
// inside the root).
function unscopedRules(root) {
  const el = document.querySelector(`.${root} > style`);
  if (!el || !el.sheet) return { count: 0, bad: ['no <style> in the root'] };
  const bad = [];
  let count = 0;
  const split = (text) => {
    const out = [];
    let depth = 0;
    let quote = '';
    let cur = '';
    for (const c of text) {
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (c === ',' && depth === 0) {
        out.push(cur.trim());
        cur = '';
        continue;
      }
      cur += c;
    }
    out.push(cur.trim());
    return out;
  };
  const scoped = new RegExp(`^\\.${root}($|[\\s.:\\[>])`);
  const walk = (rules) => {
    for (const r of rules) {
      if (r instanceof CSSStyleRule) {
        count++;
        for (const sel of split(r.selectorText)) if (!scoped.test(sel)) bad.push(`selector ${sel}`);
        if (r.cssRules && r.cssRules.length) walk(r.cssRules); // nested rules
      } else if (r instanceof CSSMediaRule || r instanceof CSSSupportsRule ||
                 (window.CSSContainerRule && r instanceof CSSContainerRule) ||
                 (window.CSSLayerBlockRule && r instanceof CSSLayerBlockRule)) {
        walk(r.cssRules);
      } else if (r instanceof CSSKeyframesRule || r instanceof CSSFontFaceRule) {
        // select nothing
      } else {
        bad.push(`at-rule ${r.cssText.slice(0, 60)}`);
      }
    }
  };
  walk(el.sheet.cssRules);
  return { count, bad };
}

// In the page: each key element's box relative to the root, and the
// computed styles the hostile sheet aims at.
function measure([root, keys, per]) {
  const r = document.querySelector(`.${root}`);
  const r0 = r.getBoundingClientRect();
  const out = {};
  for (const sel of keys) {
    const els = sel === ':scope' ? [r] : Array.from(r.querySelectorAll(sel)).slice(0, per);
    els.forEach((el, i) => {
      const b = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      // an element not rendered (the chart of the other width, hidden by
      // its media query) has no place: its style (display) is compared
      const shown = el.getClientRects().length > 0;
      out[`${sel}[${i}]`] = {
        x: shown ? b.x - r0.x : 0, y: shown ? b.y - r0.y : 0, w: b.width, h: b.height,
        style: `${cs.fontSize} ${cs.display} ${cs.textTransform} ${cs.color} ${cs.borderTopWidth}`,
      };
    });
  }
  return out;
}

// The differences between two measures, as lines.
function differences(a, b) {
  const out = [];
  for (const k of Object.keys(a)) {
    const p = a[k];
    const q = b[k];
    if (!q) {
      out.push(`${k}: missing in the hostile page`);
      continue;
    }
    const far = ['x', 'y', 'w', 'h'].filter((d) => Math.abs(p[d] - q[d]) > TOL_PX);
    if (far.length) {
      out.push(`${k}: ${far.map((d) => `${d} ${p[d].toFixed(1)} -> ${q[d].toFixed(1)}`).join(', ')}`);
    } else if (p.style !== q.style) {
      out.push(`${k}: style ${p.style} -> ${q.style}`);
    }
  }
  for (const k of Object.keys(b)) if (!a[k]) out.push(`${k}: only in the hostile page`);
  return out;
}

async function openPage(browser, html, width, blocked) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  await page.route(() => true, (route) => {
    const url = route.request().url();
    if (url.startsWith('data:')) return route.continue();
    blocked.push(url.slice(0, 200));
    return route.abort('blockedbyclient');
  });
  await page.setContent(html, { waitUntil: 'load', timeout: TIMEOUT_MS });
  return page;
}

function checkText(text, lang) {
  const trimmed = text.trim();
  check(/^<div class="sdperf-report" lang="[a-z]+">/.test(trimmed) && trimmed.endsWith('</div>'),
    'the file is one div.sdperf-report element', [trimmed.slice(0, 80)]);
  check(trimmed.startsWith(`<div class="sdperf-report" lang="${lang}">`), `the root has lang="${lang}"`);
  const banned = ['<!DOCTYPE', '<html', '<head>', '<head ', '<body', '<meta', '<link', '<script', '<iframe']
    .filter((t) => text.toLowerCase().includes(t.toLowerCase()));
  check(banned.length === 0, 'no <!DOCTYPE>, <html>, <head>, <body>, <meta>, <link>, <script>', banned);
}

async function checkDom(page) {
  const r = await page.evaluate((root) => {
    const rootEl = document.querySelector(`.${root}`);
    const ids = Array.from(rootEl.querySelectorAll('[id]')).map((e) => e.id);
    const links = Array.from(rootEl.querySelectorAll('[href], [src]'));
    const bad = [];
    for (const e of links) {
      for (const name of ['href', 'src', 'xlink:href']) {
        const v = e.getAttribute(name);
        if (v === null) continue;
        if (/^https?:\/\//i.test(v) || /^mailto:/i.test(v) || (name === 'src' && /^data:/i.test(v))) continue;
        if (v.startsWith('#sdperf-') && document.getElementById(v.slice(1))) continue;
        bad.push(`${e.tagName.toLowerCase()} ${name}="${v}"`);
      }
    }
    const styled = Array.from(rootEl.querySelectorAll('[style*="url("]')).map((e) => e.tagName);
    return {
      roots: document.querySelectorAll(`.${root}`).length,
      ids: ids.length,
      badIds: ids.filter((id) => !id.startsWith('sdperf-')),
      inPage: links.filter((e) => (e.getAttribute('href') || '').startsWith('#')).length,
      bad: bad.concat(styled.map((t) => `${t} style with url()`)),
      scripts: document.querySelectorAll('script').length,
    };
  }, ROOT);
  check(r.roots === 1, `one root element (${r.roots})`);
  check(r.ids > 0 && r.badIds.length === 0, `every id (${r.ids}) starts with "sdperf-"`, r.badIds);
  check(r.bad.length === 0, `every link is absolute or finds its target in the fragment (${r.inPage} in-page)`, r.bad);
  check(r.scripts === 0, 'no script element');
  const css = await page.evaluate(unscopedRules, ROOT);
  check(css.count > 100 && css.bad.length === 0,
    `every rule of the stylesheet (${css.count} style rules) selects inside .${ROOT} only`, css.bad);
}

async function run(o) {
  let text;
  try {
    if (!statSync(o.file).isFile()) usage(`${o.file} is not a file`);
    text = readFileSync(o.file, 'utf8');
  } catch {
    usage(`cannot read ${o.file}`);
  }
  mkdirSync(o.outDir, { recursive: true });
  checkText(text, o.lang);
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    check(false, 'load playwright-core (run `npm ci` in tests/browser)', [String(e.message || e)]);
    return;
  }
  const browser = await chromium.launch({
    executablePath: process.env.SDPERF_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    chromiumSandbox: false,
    timeout: TIMEOUT_MS,
  });
  const blocked = [];
  try {
    const blank = hostPage(text, '');
    const hostile = hostPage(text, HOSTILE_CSS);
    for (const width of WIDTHS) {
      const pb = await openPage(browser, blank, width, blocked);
      const ph = await openPage(browser, hostile, width, blocked);
      if (width === WIDTHS[0]) await checkDom(pb);
      const args = [ROOT, KEYS, PER_SELECTOR];
      const mb = await pb.evaluate(measure, args);
      const mh = await ph.evaluate(measure, args);
      const diff = differences(mb, mh);
      check(Object.keys(mb).length > 40 && diff.length === 0,
        `${width} px: ${Object.keys(mb).length} key elements keep their size, place (within ${TOL_PX} px) and style in the hostile page`, diff);
      // the hostile sheet bites: on the host's own elements ...
      const host = await ph.evaluate(() => {
        const h2 = getComputedStyle(document.getElementById('host-h2'));
        const t = document.getElementById('host-table').getBoundingClientRect();
        return `${h2.display} ${h2.fontSize} ${h2.textTransform} table ${Math.round(t.width)}`;
      });
      check(/^inline 45px uppercase table \d+$/.test(host) && host !== 'inline 45px uppercase table 0',
        `${width} px: the hostile rules style the host's own elements (${host})`);
      // ... and on the fragment, once its reset rules are gone
      await ph.evaluate((root) => {
        const sheet = document.querySelector(`.${root} > style`).sheet;
        for (let i = sheet.cssRules.length - 1; i >= 0; i--) {
          if (sheet.cssRules[i].cssText.includes('revert')) sheet.deleteRule(i);
        }
      }, ROOT);
      const leak = differences(mb, await ph.evaluate(measure, args));
      check(leak.length > 0, `${width} px: without the reset rules the comparison finds the leaks (${leak.length})`);
      await ph.setContent(hostile, { waitUntil: 'load', timeout: TIMEOUT_MS });
      if (width < 1000) {
        for (const [name, p] of [['blank', pb], ['hostile', ph]]) {
          const w = await p.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
          check(w[0] <= w[1], `${width} px: the ${name} page does not scroll sideways (scrollWidth ${w[0]}, width ${w[1]})`);
        }
      }
      await ph.screenshot({ path: join(o.outDir, `hostile-${width}.png`), fullPage: true });
      await pb.close();
      await ph.close();
    }
  } finally {
    await browser.close();
  }
  check(blocked.length === 0, `the fragment requests nothing (${blocked.length})`, blocked);
}

const opts = parseArgs(process.argv.slice(2));
const t0 = Date.now();
run(opts)
  .catch((e) => check(false, 'the check ran', [String((e && e.stack) || e)]))
  .finally(() => {
    console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  });
