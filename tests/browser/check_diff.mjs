#!/usr/bin/env node
// Checks an sdperf comparison report (diff.html, from `sdperf diff`) in
// headless Chromium.
//
//   node check_diff.mjs DIFF.html OUT_DIR [--lang en|zh]
//        [--expect SELECTOR=MIN]... [--count SELECTOR=N]...
//        [--text SELECTOR TEXT]... [--row SELECTOR TEXT1 TEXT2]...
//
// --expect: at least MIN elements match; --count: exactly N (e.g.
// 'img=0' for a report whose data held <img> markup); --text: some element
// matching SELECTOR has exactly TEXT as its (whitespace-collapsed) text;
// --row: some element matching SELECTOR (a table row) has a cell holding
// TEXT1 and a cell holding TEXT2.
//
// Two passes, JavaScript enabled and disabled, each in a fresh browser and
// profile, the page opened from its file:// URL with every other request
// aborted and counted. Each pass runs the options' checks and its own:
// <html lang>, no console / page error, no dialog, no request; the bar
// chart (svg.diff-chart): every bar filled with its category's colour and
// inside the chart, each stage's base and new bar as long as its kernel
// time in the Stages table (one scale for all) and labelled with that
// table's figure; no element wider than the page at 1280 px; a full-page
// screenshot that is not blank; under print media every section of the
// navigation shown with its tables and charts, the navigation hidden.
// Prints "ok ..." / "FAIL ..." lines, then "N passed, M failed"; exits 0
// only if nothing failed (2: usage error). The harness (browser flags,
// request routing) is browser_common.mjs's, shared with check_report.mjs,
// whose PNG helpers it imports.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VIEWPORT, SETTLE_MS, TIMEOUT_MS, blockRequests, launchBrowser, runPasses } from './browser_common.mjs';
import { decodePng, colourStats } from './check_report.mjs';

const USAGE =
  'usage: node check_diff.mjs DIFF.html OUT_DIR [--lang en|zh] [--expect SEL=MIN]... ' +
  '[--count SEL=N]... [--text SEL TEXT]... [--row SEL TEXT1 TEXT2]...';

const MIN_DIFFERING = 0.02;
const MIN_COLOURS = 3;
const BAR_TOLERANCE_PX = 2; // bars are whole pixels: rounding per segment

// ---------------------------------------------------------------- arguments

function usage(msg) {
  if (msg) process.stderr.write(`check_diff: ${msg}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

function selCount(a, spec) {
  const k = spec.lastIndexOf('=');
  const sel = k > 0 ? spec.slice(0, k).trim() : '';
  const n = k > 0 ? spec.slice(k + 1).trim() : '';
  if (!sel || !/^\d+$/.test(n)) usage(`bad ${a} '${spec}' (want SELECTOR=N)`);
  return { sel, n: Number(n) };
}

function parseArgs(argv) {
  const o = { pos: [], lang: null, expects: [], counts: [], texts: [], rows: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const take = (k) => {
      if (i + k >= argv.length) usage(`${a} needs ${k} value(s)`);
      const v = argv.slice(i + 1, i + 1 + k);
      i += k;
      return v;
    };
    if (a === '--lang') {
      [o.lang] = take(1);
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]+)*$/.test(o.lang)) usage(`bad --lang '${o.lang}'`);
    } else if (a === '--expect') o.expects.push(selCount(a, take(1)[0]));
    else if (a === '--count') o.counts.push(selCount(a, take(1)[0]));
    else if (a === '--text') {
      const [sel, text] = take(2);
      o.texts.push({ sel, text });
    } else if (a === '--row') {
      const [sel, a1, a2] = take(3);
      o.rows.push({ sel, texts: [a1, a2] });
    } else if (a === '-h' || a === '--help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else o.pos.push(a);
  }
  if (o.pos.length !== 2) usage('need DIFF.html and OUT_DIR');
  return { ...o, report: resolve(o.pos[0]), outDir: resolve(o.pos[1]) };
}

// ------------------------------------------------------------------ results

let passed = 0;
let failed = 0;

function check(cond, msg, details = []) {
  if (cond) {
    passed++;
    console.log(`ok ${msg}`);
    return;
  }
  failed++;
  console.log(`FAIL ${msg}`);
  for (const d of details) console.log(`     ${d}`);
}

const firstLine = (e) => String((e && e.message) || e).split('\n')[0];

// ------------------------------------------------------- in-page functions

// Texts of the elements matching sel, whitespace collapsed.
function textsOf(sel) {
  return Array.from(document.querySelectorAll(sel)).map((el) =>
    el.textContent.replace(/\s+/g, ' ').trim());
}

// Rows matching sel: the texts of their cells.
function rowsOf(sel) {
  return Array.from(document.querySelectorAll(sel)).map((tr) =>
    Array.from(tr.children).map((c) => c.textContent.replace(/\s+/g, ' ').trim()));
}

// The chart's bars per stage row (base, new) against the Stages table.
function chartState() {
  const svg = document.querySelector('svg.diff-chart');
  if (!svg) return null;
  const vb = svg.viewBox.baseVal;
  const bars = Array.from(svg.querySelectorAll('rect[class^="c-"]')).filter((r) => r.querySelector('title'));
  const fills = {};
  const outside = [];
  for (const r of bars) {
    fills[r.getAttribute('class')] = getComputedStyle(r).fill;
    const b = r.getBBox();
    if (b.x < vb.x || b.y < vb.y || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
      outside.push(`${r.getAttribute('class')} at ${b.x},${b.y} ${b.width}x${b.height}`);
  }
  // one row per "base"/"new" tag: the bars whose vertical middle is beside it
  const rows = Array.from(svg.querySelectorAll('text.tag')).map((tag) => {
    const t = tag.getBBox();
    const mid = t.y + t.height / 2;
    const mine = bars.filter((r) => {
      const b = r.getBBox();
      return mid >= b.y - 2 && mid <= b.y + b.height + 2;
    });
    const total = Array.from(svg.querySelectorAll('text.total')).find((x) => {
      const b = x.getBBox();
      return Math.abs(b.y + b.height / 2 - mid) < 4;
    });
    return {
      tag: tag.textContent,
      width: mine.reduce((s, r) => s + r.getBBox().width, 0),
      segments: mine.length,
      total: total ? total.textContent.trim() : null,
    };
  });
  // kernel time base / new: the 6th and 7th cell of each Stages row
  const stages = Array.from(document.querySelectorAll('table.diff-stages tbody tr')).map((tr) => ({
    label: tr.cells[0].childNodes.length ? tr.cells[0].textContent.replace(/\s+/g, ' ').trim() : '',
    base: { ns: Number(tr.cells[5].dataset.v), text: tr.cells[5].textContent.trim() },
    new: { ns: Number(tr.cells[6].dataset.v), text: tr.cells[6].textContent.trim() },
  }));
  return { fills, outside, rows, stages, bars: bars.length, legend: svg.querySelectorAll('rect[class^="c-"]').length - bars.length };
}

// Elements reaching past the body's right edge, and sideways scrolling.
function wideState() {
  const limit = document.body.getBoundingClientRect().right + 1;
  const out = [];
  document.querySelectorAll('main *').forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > limit) {
      const sec = el.closest('section');
      const cls = el.className && (el.className.baseVal ?? el.className);
      out.push(`${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''} in #${sec ? sec.id : ''}: right ${Math.round(r.right)} > ${Math.round(limit)}`);
    }
  });
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) out.push(`page scrolls sideways: ${doc.scrollWidth} > ${window.innerWidth}`);
  return out;
}

// Under print media: each section the navigation links to, rendered with
// all its tables and charts; the navigation itself hidden.
function printState() {
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().height > 0;
  const ids = Array.from(document.querySelectorAll('nav a[href^="#"]')).map((a) => a.getAttribute('href').slice(1));
  const problems = [];
  for (const id of ids) {
    const sec = document.getElementById(id);
    if (!sec) problems.push(`#${id}: no such section`);
    else if (!shown(sec)) problems.push(`#${id}: not rendered`);
    else
      // (svg.narrow: a chart's drawing for a phone, hidden elsewhere)
      sec.querySelectorAll('table, svg:not(.narrow), ul').forEach((el) => {
        if (!shown(el)) problems.push(`#${id}: ${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className} hidden`);
      });
  }
  const nav = document.querySelector('nav');
  return { ids, problems, navHidden: !nav || !nav.checkVisibility(), printMatches: matchMedia('print').matches };
}

// ----------------------------------------------------------------- checks

async function optionChecks(page, opts, tag) {
  for (const { sel, n } of opts.expects) {
    const got = await page.locator(sel).count().catch((e) => `bad selector: ${firstLine(e)}`);
    check(got >= n, `${tag} expect ${sel} >= ${n} (found ${got})`);
  }
  for (const { sel, n } of opts.counts) {
    const got = await page.locator(sel).count().catch((e) => `bad selector: ${firstLine(e)}`);
    check(got === n, `${tag} count ${sel} == ${n} (found ${got})`);
  }
  for (const { sel, text } of opts.texts) {
    const got = await page.evaluate(textsOf, sel);
    check(got.includes(text), `${tag} text ${sel} "${text}"`,
      [`${got.length} elements: ${got.slice(0, 8).map((t) => JSON.stringify(t.slice(0, 60))).join(', ')}`]);
  }
  for (const { sel, texts } of opts.rows) {
    const rows = await page.evaluate(rowsOf, sel);
    const hit = rows.some((cells) => texts.every((t) => cells.some((c) => c.includes(t))));
    const near = rows.filter((cells) => cells.some((c) => c.includes(texts[0])));
    check(hit, `${tag} row ${sel} with "${texts[0]}" and "${texts[1]}"`,
      [`${rows.length} rows; with "${texts[0]}": ${near.slice(0, 3).map((c) => JSON.stringify(c.join(' | ').slice(0, 120))).join('; ') || 'none'}`]);
  }
}

// Category fills of the report palette (src/view/palette.c).
const PALETTE = {
  'c-FA': 'rgb(213, 94, 0)', 'c-MatMul': 'rgb(51, 34, 136)', 'c-Conv': 'rgb(86, 180, 233)',
  'c-Vector': 'rgb(240, 228, 66)', 'c-Comm': 'rgb(68, 187, 153)', 'c-Other': 'rgb(85, 85, 85)',
};

function checkChart(tag, st) {
  if (!st) {
    check(false, `${tag} chart: svg.diff-chart present`);
    return;
  }
  const cats = Object.keys(st.fills);
  const bad = cats.filter((c) => !/^rgb/.test(st.fills[c]) || st.fills[c] === 'rgb(0, 0, 0)');
  check(st.bars > 0 && bad.length === 0,
    `${tag} chart: ${st.bars} bars, each category coloured (${cats.map((c) => `${c} ${st.fills[c]}`).join(', ')})`,
    bad.map((c) => `${c}: fill ${st.fills[c]}`));
  check(new Set(Object.values(st.fills)).size === cats.length, `${tag} chart: ${cats.length} categories, ${cats.length} colours`);
  // the palette of src/view/palette.c (checked for colour-blind safety by
  // tests/unit/test_palette.c): the chart must use it, not a browser default
  const wrong = cats.filter((c) => PALETTE[c] && st.fills[c] !== PALETTE[c]);
  check(wrong.length === 0 && cats.every((c) => PALETTE[c]), `${tag} chart: categories in the report palette`,
    wrong.map((c) => `${c}: ${st.fills[c]}, want ${PALETTE[c]}`));
  check(st.outside.length === 0, `${tag} chart: every bar inside the chart`, st.outside.slice(0, 5));
  const n = st.stages.length;
  const tags = st.rows.map((r) => r.tag).join(',');
  check(n > 0 && st.rows.length === 2 * n, `${tag} chart: a base and a new bar for each of the ${n} stages`, [`rows: ${tags}`]);
  if (st.rows.length !== 2 * n) return;
  const pairs = [];
  st.stages.forEach((s, i) => {
    pairs.push({ row: st.rows[2 * i], want: s.base, what: `${s.label} base` });
    pairs.push({ row: st.rows[2 * i + 1], want: s.new, what: `${s.label} new` });
  });
  // one scale for all bars: the longest bar's pixels per ns
  const ref = pairs.reduce((m, p) => (p.want.ns > m.want.ns ? p : m), pairs[0]);
  const scale = ref.want.ns > 0 ? ref.row.width / ref.want.ns : 0;
  const off = pairs.filter((p) => Math.abs(p.row.width - p.want.ns * scale) > BAR_TOLERANCE_PX + p.row.segments)
    .map((p) => `${p.what}: ${p.row.width.toFixed(1)} px for ${p.want.text}, want ${(p.want.ns * scale).toFixed(1)}`);
  check(scale > 0 && off.length === 0, `${tag} chart: bar lengths proportional to the Stages table's kernel times`, off);
  const labels = pairs.filter((p) => p.row.total !== p.want.text)
    .map((p) => `${p.what}: label "${p.row.total}", table "${p.want.text}"`);
  check(labels.length === 0, `${tag} chart: each bar labelled with its kernel time`, labels);
}

async function checkScreenshot(page, opts, tag, js) {
  const shotPath = join(opts.outDir, js ? 'diff.png' : 'diff-nojs.png');
  try {
    const png = await page.screenshot({ path: shotPath, fullPage: true, type: 'png', animations: 'disabled' });
    const st = colourStats(decodePng(png));
    check(st.differing >= MIN_DIFFERING && st.distinct >= MIN_COLOURS,
      `${tag} screenshot ${shotPath} not blank (${(st.differing * 100).toFixed(1)}% of pixels differ from ${st.background}, ${st.distinct} colours)`,
      [`want >= ${MIN_DIFFERING * 100}% differing and >= ${MIN_COLOURS} colours`]);
  } catch (e) {
    check(false, `${tag} screenshot ${shotPath}`, [firstLine(e)]);
  }
}

async function checkPrint(page, tag) {
  await page.emulateMedia({ media: 'print' });
  const ps = await page.evaluate(printState);
  if (!ps.printMatches) check(false, `${tag} print media emulation`, ['matchMedia("print") does not match']);
  else {
    check(ps.ids.length >= 5 && ps.problems.length === 0,
      `${tag} print: all ${ps.ids.length} sections shown (${ps.ids.join(', ')})`, ps.problems.slice(0, 8));
    check(ps.navHidden, `${tag} print: navigation hidden`);
  }
  await page.emulateMedia({ media: 'screen' });
}

// --------------------------------------------------------------- one pass

async function openPage(chromium, opts, js, log) {
  const pageUrl = pathToFileURL(opts.report).href;
  const context = await launchBrowser(chromium, log.profile, opts.executablePath, js);
  const note = await blockRequests(context, pageUrl, log.blocked);
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(TIMEOUT_MS);
  page.on('console', (m) => { if (m.type() === 'error') log.console.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(firstLine(e)));
  page.on('dialog', (d) => { log.dialogs.push(`${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on('popup', (p) => note('popup', p.url()));
  await page.goto(pageUrl, { waitUntil: 'load' });
  await page.waitForTimeout(SETTLE_MS);
  return { context, page };
}

async function runPass(chromium, opts, js) {
  const tag = js ? '[js]' : '[nojs]';
  const log = { profile: mkdtempSync(join(tmpdir(), 'sdperf-chromium-')), blocked: [], console: [], errors: [], dialogs: [] };
  let context;
  try {
    let page;
    try {
      ({ context, page } = await openPage(chromium, opts, js, log));
      check(true, `${tag} load ${opts.report}`);
    } catch (e) {
      check(false, `${tag} launch and load ${opts.report}`, [firstLine(e)]);
      return;
    }
    const lang = await page.evaluate(() => document.documentElement.lang);
    check(opts.lang ? lang === opts.lang : lang !== '', `${tag} <html lang="${opts.lang || lang}">`, [`lang is "${lang}"`]);
    await optionChecks(page, opts, tag);
    checkChart(tag, await page.evaluate(chartState));
    const wide = await page.evaluate(wideState);
    check(wide.length === 0, `${tag} nothing wider than the page at ${VIEWPORT.width} px`, wide.slice(0, 6));
    await checkScreenshot(page, opts, tag, js);
    await checkPrint(page, tag);
    await page.waitForTimeout(50); // late console messages
    check(log.errors.length === 0, `${tag} no page errors`, log.errors);
    check(log.dialogs.length === 0, `${tag} no dialog opened (no script from the data ran)`, log.dialogs);
    check(log.console.length === 0, `${tag} no console errors`, log.console);
    check(log.blocked.length === 0, `${tag} ${log.blocked.length} requests blocked (none wanted)`,
      log.blocked.map((b) => `blocked: ${b}`));
  } finally {
    if (context) await context.close().catch(() => {});
    rmSync(log.profile, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  await runPasses(opts, usage, check, runPass);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

main().catch((e) => {
  console.log(`FAIL internal error: ${e && e.stack ? e.stack : e}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
