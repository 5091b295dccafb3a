// The Content-Security-Policy of an HTML report (report.html or diff.html),
// in headless Chromium with JavaScript on and every request blocked:
//   - the page's own inline script runs (the policy allows it by its
//     sha256 hash): clicking a sortable table's heading sorts it;
//   - nothing else runs: window.__sdperf_pwned stays undefined and no
//     dialog opens, whatever a user report.css or template injected;
//   - with --violations N, exactly N inline scripts were refused by the
//     policy (securitypolicyviolation events, script-src-elem), so a test
//     that plants a script of its own sees the policy, not luck, stop it;
//   - with --ran NAME, window.NAME is defined: a user's own report.js or
//     diff.js (--templates) ran, allowed by its own hash.
// Usage: node check_csp.mjs REPORT.html [--violations N] [--ran NAME]
// Prints "ok ..." / "FAIL ..." lines and "N passed, M failed"; exits 0
// only if nothing failed (2: usage error).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { blockRequests, launchBrowser, SETTLE_MS, TIMEOUT_MS } from './browser_common.mjs';

let passed = 0;
let failed = 0;
function check(cond, msg, details = []) {
  if (cond) {
    passed++;
    console.log(`ok   ${msg}`);
  } else {
    failed++;
    console.log(`FAIL ${msg}`);
    for (const d of details) console.log(`     ${d}`);
  }
}

function usage(msg) {
  console.error(`check_csp.mjs: ${msg}\nusage: node check_csp.mjs REPORT.html [--violations N] [--ran NAME]`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { report: null, violations: 0, ran: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ran') {
      if (!/^\w+$/.test(argv[i + 1] || '')) usage('--ran needs a name');
      o.ran = argv[++i];
    } else if (argv[i] === '--violations') {
      if (!/^\d+$/.test(argv[i + 1] || '')) usage('--violations needs a count');
      o.violations = Number(argv[++i]);
    } else if (argv[i].startsWith('-')) usage(`unknown option ${argv[i]}`);
    else if (o.report) usage('one REPORT.html');
    else o.report = resolve(argv[i]);
  }
  if (!o.report) usage('need REPORT.html');
  return o;
}

// Runs in the page before its own scripts: records every CSP violation.
function recordViolations() {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample || ''}`);
  });
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const pageUrl = pathToFileURL(o.report).href;
  const profile = mkdtempSync(join(tmpdir(), 'sdperf-csp-'));
  const blocked = [];
  const dialogs = [];
  const executablePath = process.env.SDPERF_CHROMIUM || '/usr/bin/chromium';
  let context;
  try {
    context = await launchBrowser(chromium, profile, executablePath, true);
    await blockRequests(context, pageUrl, blocked);
    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(TIMEOUT_MS);
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    await page.addInitScript(recordViolations);
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.waitForTimeout(SETTLE_MS);

    const csp = await page.evaluate(() => {
      const m = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
      return m ? m.content : '';
    });
    check(/script-src 'sha256-[A-Za-z0-9+/]{43}='/.test(csp) && !/script-src[^;]*unsafe-inline/.test(csp),
      `policy allows one script by its hash, no 'unsafe-inline': ${csp}`);

    // the report's own script: a click on a sortable heading sorts
    const sorted = await page.evaluate(() => {
      const th = document.querySelector('table.sortable th');
      if (!th) return 'no sortable table';
      th.click();
      return th.getAttribute('aria-sort') || 'heading not marked after a click';
    });
    check(sorted === 'ascending', `the report's own script ran (a click sorted a table: ${sorted})`);

    if (o.ran) {
      const ran = await page.evaluate((n) => typeof window[n], o.ran);
      check(ran !== 'undefined', `the user's script ran (window.${o.ran} is ${ran})`);
    }
    const pwned = await page.evaluate(() => typeof window.__sdperf_pwned);
    check(pwned === 'undefined', 'no injected script ran (window.__sdperf_pwned undefined)', [`it is ${pwned}`]);
    check(dialogs.length === 0, 'no dialog opened', dialogs);
    const seen = await page.evaluate(() => window.__csp.filter((v) => v.startsWith('script-src')));
    check(seen.length === o.violations, `${o.violations} inline script(s) refused by the policy (saw ${seen.length})`, seen);
    check(blocked.length === 0, 'nothing fetched', blocked);
  } catch (e) {
    check(false, `browser: ${String(e.message || e).split('\n')[0]}`);
  } finally {
    if (context) await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

main();
