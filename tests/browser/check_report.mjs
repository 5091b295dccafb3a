#!/usr/bin/env node
// Checks a self-contained sdperf report.html in headless Chromium.
//
//   node check_report.mjs REPORT.html OUT_DIR [--lang en|zh]
//                         [--expect SELECTOR=MINCOUNT]...
//
// Two passes, JavaScript enabled and disabled, each in a fresh browser with
// its own temporary profile. The report is opened from its file:// URL with
// every request routed: only the report itself (and data: URLs) may load;
// anything else is aborted, listed, and fails the check. Each pass checks
// the --expect selectors, <html lang>, console and page errors, that a
// full-page screenshot is not blank, that the Steps section has one table
// per rank with steps (collapsible, only the lead rank's open, when there
// are several), and that every <details> is expanded under print media.
// Prints "ok ..." / "FAIL ..." per check and a closing "N passed,
// M failed"; exits 0 only if nothing failed (2: usage error).
//
// Browser: $SDPERF_CHROMIUM, else /usr/bin/chromium (Debian's package);
// playwright-core drives it, no Playwright-downloaded browser is used.
// Its flags and the request blocking are browser_common.mjs's, shared with
// check_diff.mjs.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { SETTLE_MS, TIMEOUT_MS, blockRequests, launchBrowser, runPasses } from './browser_common.mjs';

const USAGE =
  'usage: node check_report.mjs REPORT.html OUT_DIR [--lang en|zh] ' +
  '[--expect SELECTOR=MINCOUNT]...';

// ---------------------------------------------------------------- arguments

function usage(msg) {
  if (msg) process.stderr.write(`check_report: ${msg}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const pos = [];
  const expects = [];
  let lang = null;
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let val = null;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const take = () => {
      if (val !== null) return val;
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--lang') {
      lang = take();
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]+)*$/.test(lang)) usage(`bad --lang '${lang}'`);
    } else if (a === '--expect') {
      const spec = take();
      const k = spec.lastIndexOf('=');
      const sel = k > 0 ? spec.slice(0, k).trim() : '';
      const n = k > 0 ? spec.slice(k + 1).trim() : '';
      if (!sel || !/^\d+$/.test(n)) usage(`bad --expect '${spec}' (want SELECTOR=MINCOUNT)`);
      expects.push({ sel, min: Number(n) });
    } else if (a === '-h' || a === '--help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (a.startsWith('-') && a !== '-') {
      usage(`unknown option ${a}`);
    } else {
      pos.push(argv[i]);
    }
  }
  if (pos.length !== 2) usage('need REPORT.html and OUT_DIR');
  return { report: resolve(pos[0]), outDir: resolve(pos[1]), lang, expects };
}

// ------------------------------------------------------------------ results

let passed = 0;
let failed = 0;

function ok(msg) {
  passed++;
  console.log(`ok ${msg}`);
}

function fail(msg, details = []) {
  failed++;
  console.log(`FAIL ${msg}`);
  for (const d of details) console.log(`     ${d}`);
}

function check(cond, msg, details) {
  if (cond) ok(msg);
  else fail(msg, details);
}

// -------------------------------------------------------------- PNG decoder
// Enough of PNG for Chromium's screenshots: 8-bit RGB or RGBA, not
// interlaced, filter types 0-4. Returns { width, height, channels, data }
// with data the unfiltered pixel bytes, row after row.

export function decodePng(buf) {
  const SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (buf.length < 8 || SIG.some((b, i) => buf[i] !== b)) throw new Error('not a PNG file');
  let pos = 8;
  let ihdr = null;
  const idat = [];
  for (;;) {
    if (pos + 8 > buf.length) throw new Error('truncated PNG (no IEND)');
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (body.length !== len) throw new Error(`truncated PNG chunk ${type}`);
    pos += 12 + len; // length, type, data, CRC
    if (type === 'IHDR') {
      ihdr = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8],
        colorType: body[9],
        interlace: body[12],
      };
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
  }
  if (!ihdr) throw new Error('PNG without IHDR');
  const { width, height, depth, colorType, interlace } = ihdr;
  if (depth !== 8) throw new Error(`PNG bit depth ${depth} not supported`);
  const channels = colorType === 2 ? 3 : colorType === 6 ? 4 : 0;
  if (!channels) throw new Error(`PNG colour type ${colorType} not supported`);
  if (interlace !== 0) throw new Error('interlaced PNG not supported');

  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('PNG image data too short');
  const out = Buffer.alloc(height * stride);
  const bpp = channels; // bytes per pixel at depth 8
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    const up = dst - stride; // previous output row (y > 0)
    for (let x = 0; x < stride; x++) {
      const r = raw[src + x];
      const a = x >= bpp ? out[dst + x - bpp] : 0;
      const b = y > 0 ? out[up + x] : 0;
      const c = x >= bpp && y > 0 ? out[up + x - bpp] : 0;
      let v;
      switch (filter) {
        case 0: v = r; break;
        case 1: v = r + a; break;
        case 2: v = r + b; break;
        case 3: v = r + ((a + b) >> 1); break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          v = r + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default:
          throw new Error(`PNG filter type ${filter} on row ${y}`);
      }
      out[dst + x] = v & 0xff;
    }
  }
  return { width, height, channels, data: out };
}

// Share of pixels differing from the most common colour, and how many
// distinct colours there are (alpha counts as part of the colour).
export function colourStats(img) {
  const { data, channels } = img;
  const n = img.width * img.height;
  const counts = new Map();
  for (let i = 0; i < n; i++) {
    const o = i * channels;
    const key =
      ((data[o] << 24) | (data[o + 1] << 16) | (data[o + 2] << 8) | (channels === 4 ? data[o + 3] : 255)) >>> 0;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let top = 0;
  let topKey = 0;
  for (const [k, c] of counts) {
    if (c > top) {
      top = c;
      topKey = k;
    }
  }
  return {
    pixels: n,
    distinct: counts.size,
    differing: n ? (n - top) / n : 0,
    background: `#${topKey.toString(16).padStart(8, '0')}`,
  };
}

const MIN_DIFFERING = 0.02;
const MIN_COLOURS = 3;

// -------------------------------------------------------------- one pass

// Runs in the page: is every <details> open, or its content rendered?
// Chromium (>= 131) hides a closed <details>' content with content-visibility
// on ::details-content, so the children's own `display` says nothing;
// checkVisibility() covers display:none and content-visibility:hidden
// ancestors alike; a zero-size box counts as not rendered too.
function detailsState() {
  const rendered = (el) => {
    if (getComputedStyle(el).display === 'none') return false;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
  };
  const all = Array.from(document.querySelectorAll('details'));
  const closed = [];
  all.forEach((d, i) => {
    if (d.open) return;
    const summary = d.querySelector(':scope > summary');
    const hidden = [];
    for (const node of d.childNodes) {
      if (node === summary) continue;
      if (node.nodeType === Node.ELEMENT_NODE) {
        if (!rendered(node)) hidden.push(node.tagName.toLowerCase());
      } else if (node.nodeType === Node.TEXT_NODE && node.textContent.trim()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        if (!(r.width > 0 && r.height > 0)) hidden.push('#text');
      }
    }
    if (hidden.length) {
      const label = (summary ? summary.textContent : d.id || '').trim().replace(/\s+/g, ' ');
      closed.push(`details #${i + 1} "${label.slice(0, 60)}": hidden ${hidden.join(', ')}`);
    }
  });
  return { count: all.length, closed, printMatches: matchMedia('print').matches };
}

// Runs in the page: the Steps section's layout. Returns null without
// per-rank step tables, else the facts check_steps() judges.
function stepsState() {
  const sec = document.querySelector('section#steps');
  if (!sec || !sec.querySelector('table.steps')) return null;
  const subs = Array.from(sec.querySelectorAll('.step-rank'));
  const summary = sec.querySelector('table.step-ranks');
  const summaryIds = summary
    ? Array.from(summary.querySelectorAll('tbody tr')).map((tr) => tr.cells[0].textContent.trim())
    : [];
  // ranks whose folder has a step_trace_time.csv (Inputs section)
  let withFile = null;
  const inputs = document.querySelector('table.rank-inputs');
  if (inputs) {
    withFile = Array.from(inputs.querySelectorAll('tbody tr')).filter((tr) =>
      Array.from(tr.querySelectorAll('li.found code')).some((c) => c.textContent === 'step_trace_time.csv'),
    ).length;
  }
  return {
    tables: sec.querySelectorAll('table.steps').length,
    summaryIds,
    summaryFirst: !summary || !subs.length ||
      !!(summary.compareDocumentPosition(subs[0]) & Node.DOCUMENT_POSITION_FOLLOWING),
    withFile,
    subs: subs.map((el) => ({
      tag: el.tagName.toLowerCase(),
      open: el.tagName === 'DETAILS' ? el.open : null,
      heading: (el.querySelector('h3') || { textContent: '' }).textContent.trim(),
      tables: el.querySelectorAll('table.steps').length,
      // one chart: its wide drawing (svg.narrow is the phone's)
      charts: el.querySelectorAll('figure.chart svg:not(.narrow)').length,
      visible: el.querySelector('table.steps') ? el.querySelector('table.steps').checkVisibility() : false,
    })),
  };
}

// One sub-section per rank with steps, each with its heading, table and
// chart; with several: the summary first, one row per sub-section in the
// same order, collapsible <details> of which only the first-listed open
// one (the lead rank's) shows its table.
function checkSteps(tag, st) {
  if (!st) {
    console.log(`skip ${tag} steps: no per-rank step table`);
    return;
  }
  const n = st.subs.length;
  check(n > 0 && st.tables === n, `${tag} steps: ${st.tables} step tables in ${n} per-rank sub-sections`);
  const bad = st.subs.filter((x) => x.tables !== 1 || x.charts !== 1 || !/\d/.test(x.heading));
  check(bad.length === 0, `${tag} steps: each sub-section has a "Rank N" heading, one table, one chart`,
    bad.map((x) => `${x.heading || '(no heading)'}: ${x.tables} tables, ${x.charts} charts`));
  if (st.withFile !== null)
    check(n === st.withFile, `${tag} steps: one table per rank with step_trace_time.csv (${st.withFile})`,
      [`${n} tables`]);
  if (n === 0) return;
  if (n < 2) {
    check(st.subs[0].tag !== 'details', `${tag} steps: a single rank's table is not collapsed`);
    return;
  }
  const ids = st.subs.map((x) => (x.heading.match(/\d+/) || [''])[0]);
  check(st.summaryIds.join() === ids.join(), `${tag} steps: summary rows match the sub-sections (${ids.join(', ')})`,
    [`summary ${st.summaryIds.join(', ')}`]);
  check(st.summaryFirst, `${tag} steps: the summary per rank comes first`);
  const open = st.subs.filter((x) => x.open);
  check(st.subs.every((x) => x.tag === 'details') && open.length === 1,
    `${tag} steps: ${n} collapsible sub-sections, one open (${open.map((x) => x.heading).join()})`,
    st.subs.map((x) => `${x.tag} ${x.heading} open=${x.open}`));
  check(st.subs.every((x) => x.visible === !!x.open), `${tag} steps: only the open sub-section's table shows on screen`,
    st.subs.map((x) => `${x.heading}: visible=${x.visible}`));
}

async function runPass(chromium, opts, js) {
  const tag = js ? '[js]' : '[nojs]';
  const pageUrl = pathToFileURL(opts.report).href;
  const profile = mkdtempSync(join(tmpdir(), 'sdperf-chromium-'));
  const blocked = [];
  const consoleErrors = [];
  const dialogs = [];
  const pageErrors = [];
  let context;
  const t0 = Date.now();
  try {
    try {
      context = await launchBrowser(chromium, profile, opts.executablePath, js);
    } catch (e) {
      fail(`${tag} launch ${opts.executablePath}`, [String(e.message || e).split('\n')[0]]);
      return;
    }
    ok(`${tag} launch ${opts.executablePath} (${Date.now() - t0} ms)`);

    const note = await blockRequests(context, pageUrl, blocked);

    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(TIMEOUT_MS);
    page.on('websocket', (ws) => note('websocket', ws.url()));
    page.on('console', (msg) => {
      if (msg.type() === 'error') {
        const loc = msg.location();
        const where = loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : '';
        consoleErrors.push(`${msg.text()}${where}`);
      }
    });
    page.on('pageerror', (err) => pageErrors.push(String(err.message || err).split('\n')[0]));
    // data that reached the page as markup could open an alert()
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    page.on('popup', (p) => note('popup', p.url()));

    try {
      await page.goto(pageUrl, { waitUntil: 'load' });
      await page.waitForTimeout(SETTLE_MS);
      ok(`${tag} load ${pageUrl}`);
    } catch (e) {
      fail(`${tag} load ${pageUrl}`, [String(e.message || e).split('\n')[0]]);
      return;
    }

    // lang
    const lang = await page.evaluate(() => document.documentElement.lang);
    if (opts.lang) check(lang === opts.lang, `${tag} <html lang="${opts.lang}">`, [`lang is "${lang}"`]);
    else check(lang !== '', `${tag} <html lang> is set ("${lang}")`, ['no lang attribute on <html>']);

    // expected elements
    for (const { sel, min } of opts.expects) {
      let n;
      try {
        n = await page.locator(sel).count();
      } catch (e) {
        fail(`${tag} expect ${sel} >= ${min}`, [`bad selector: ${String(e.message || e).split('\n')[0]}`]);
        continue;
      }
      check(n >= min, `${tag} expect ${sel} >= ${min} (found ${n})`, []);
    }

    // nothing wider than the page body (wide tables: ranks, markers)
    const wide = await page.evaluate(() => {
      const limit = document.body.getBoundingClientRect().right + 1;
      const out = [];
      document.querySelectorAll('main table, main figure, main svg, main pre').forEach((el) => {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > limit) {
          const id = el.closest('section') ? el.closest('section').id : '';
          out.push(`${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className} in #${id}: right ${Math.round(r.right)} > ${Math.round(limit)}`);
        }
      });
      const doc = document.documentElement;
      if (doc.scrollWidth > window.innerWidth) out.push(`page scrolls sideways: ${doc.scrollWidth} > ${window.innerWidth}`);
      return out;
    });
    check(wide.length === 0, `${tag} no table, chart or code block wider than the page`, wide.slice(0, 5));

    // steps: one table per rank (screen media, before printing opens all)
    checkSteps(tag, await page.evaluate(stepsState));

    // screenshot, screen media
    const shotPath = join(opts.outDir, js ? 'report.png' : 'report-nojs.png');
    try {
      const png = await page.screenshot({ path: shotPath, fullPage: true, type: 'png', animations: 'disabled' });
      const st = colourStats(decodePng(png));
      const pct = (st.differing * 100).toFixed(1);
      check(
        st.differing >= MIN_DIFFERING && st.distinct >= MIN_COLOURS,
        `${tag} screenshot ${shotPath} not blank (${pct}% of pixels differ from ${st.background}, ${st.distinct} colours)`,
        [`want >= ${MIN_DIFFERING * 100}% differing and >= ${MIN_COLOURS} colours`],
      );
    } catch (e) {
      fail(`${tag} screenshot ${shotPath}`, [String(e.message || e).split('\n')[0]]);
    }

    // print media: every <details> expanded
    await page.emulateMedia({ media: 'print' });
    const ds = await page.evaluate(detailsState);
    if (!ds.printMatches) {
      fail(`${tag} print media emulation`, ['matchMedia("print") does not match']);
    } else if (ds.count === 0) {
      console.log(`skip ${tag} print: no <details> in the page`);
    } else {
      check(
        ds.closed.length === 0,
        `${tag} print: ${ds.count} <details> expanded`,
        ds.closed,
      );
    }
    await page.emulateMedia({ media: 'screen' });

    await page.waitForTimeout(50); // let late console messages arrive
    check(pageErrors.length === 0, `${tag} no page errors`, pageErrors);
    check(dialogs.length === 0, `${tag} no dialog opened (no script from the data ran)`, dialogs);
    check(consoleErrors.length === 0, `${tag} no console errors`, consoleErrors);
    check(
      blocked.length === 0,
      `${tag} no request but the page itself (network blocked)`,
      blocked.map((b) => `blocked: ${b}`),
    );
  } finally {
    if (context) await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  await runPasses(opts, usage, check, runPass);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

// Run only as a program; png_selftest.mjs imports the PNG decoder.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e) => {
    console.log(`FAIL internal error: ${e && e.stack ? e.stack : e}`);
    console.log(`${passed} passed, ${failed + 1} failed`);
    process.exit(1);
  });
}
