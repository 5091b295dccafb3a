// The harness both browser checks share (check_report.mjs, check_diff.mjs):
// how headless Chromium is started, how every request but the page's own
// is blocked and listed, and the two passes (JavaScript on, then off). One
// copy, so the two checks cannot drift apart in what they let the page
// reach.

import { mkdirSync, statSync } from 'node:fs';

// Flags known to work on this machine kind (.library env notes): without the
// background-networking ones Chromium tries to reach Google's hosts at start.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--metrics-recording-only',
  '--no-pings',
];

export const VIEWPORT = { width: 1280, height: 900 };
export const SETTLE_MS = 300; // after "load", for late requests / errors
export const TIMEOUT_MS = 30000;

// A fresh headless Chromium (executablePath) on the profile directory
// profile, JavaScript on or off (js), offline, fixed viewport, locale and
// time zone so screenshots compare. Resolves to the persistent context.
export function launchBrowser(chromium, profile, executablePath, js) {
  return chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    chromiumSandbox: false,
    javaScriptEnabled: js,
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'UTC',
    serviceWorkers: 'block',
    acceptDownloads: false,
    offline: true, // belt and braces: the route below aborts anyway
    timeout: TIMEOUT_MS,
  });
}

// Routes every request of context: pageUrl itself and data: URLs load,
// anything else is aborted and noted in blocked ("TYPE URL", URL cut at
// 200 characters, each line once). Requests the router does not see, and
// websockets, are noted too. Resolves to note(what, url), for the caller's
// page-level events (popups, the page's own websockets).
export async function blockRequests(context, pageUrl, blocked) {
  const allowed = (url) => url === pageUrl || url.startsWith('data:');
  const note = (what, url) => {
    const line = `${what} ${url.length > 200 ? `${url.slice(0, 200)}...` : url}`;
    if (!blocked.includes(line)) blocked.push(line);
  };
  await context.route(
    () => true,
    (route) => {
      const url = route.request().url();
      if (allowed(url)) return route.continue();
      note(`${route.request().resourceType()}`, url);
      return route.abort('blockedbyclient');
    },
  );
  context.on('request', (req) => {
    if (!allowed(req.url())) note(req.resourceType(), req.url());
  });
  context.on('websocket', (ws) => note('websocket', ws.url()));
  return note;
}

// Both passes over opts.report, JavaScript on then off: runPass(chromium,
// opts, js) each, then the time they took. Before them, usage(msg) (which
// exits) when opts.report is not a readable file; opts.outDir is made and
// opts.executablePath set ($SDPERF_CHROMIUM, else Debian's
// /usr/bin/chromium). check(false, ...) and no pass when playwright-core
// cannot be loaded.
export async function runPasses(opts, usage, check, runPass) {
  opts.executablePath = process.env.SDPERF_CHROMIUM || '/usr/bin/chromium';
  try {
    if (!statSync(opts.report).isFile()) usage(`${opts.report} is not a file`);
  } catch {
    usage(`cannot read ${opts.report}`);
  }
  mkdirSync(opts.outDir, { recursive: true });
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    check(false, 'load playwright-core (run `npm ci` in tests/browser)', [String(e.message || e)]);
    return;
  }
  const t0 = Date.now();
  for (const js of [true, false]) await runPass(chromium, opts, js);
  console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
