// The viewer pages of `kollide viz` in a real browser (headless Chromium via playwright-core).
// Usage: KOLLIDE_CHROMIUM=/usr/bin/chromium KOLLIDE_PLAYWRIGHT_DIR=DIR node check.mjs SHOTS_DIR PAGE.html...
// (playwright-core is loaded from DIR/node_modules, or found by node's own lookup without it).
// For each page: open it from the file system with the network cut off, wait for the scene
// to be drawn, check that no error was reported (page errors, console errors, the viewer's
// own data-error), take a screenshot and count its pixels that are not the background, move
// the slider to the last frame and check that the page drew that frame, then drag to orbit and
// check that the picture changed; then, at each window size of SIZES, check that the view and
// its controls fit the window. Prints one line per page; exits 1 if any check fails.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";
import fs from "node:fs";

const { chromium } = process.env.KOLLIDE_PLAYWRIGHT_DIR
  ? createRequire(path.join(path.resolve(process.env.KOLLIDE_PLAYWRIGHT_DIR), "package.json"))("playwright-core")
  : await import("playwright-core");
// The window sizes the page must fit: the smallest it is made for, and a common laptop's.
const SIZES = [[800, 600], [1200, 800]];
const [shots, ...pages] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.KOLLIDE_CHROMIUM || "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--no-first-run"],
});
let failures = 0;

// The share of a PNG screenshot's pixels that differ from the page background (#ffffff on the
// canvas), counted by the browser itself from the screenshot bytes.
async function inkShare(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) ink++;
    return ink / (d.length / 4);
  }, png.toString("base64"));
}

// What does not fit the window: each control and the view must be shown and lie inside the
// viewport (nothing under its bottom edge, nothing to scroll to), the view at least 240 px
// high, and the canvas's drawing buffer the size it is shown at.
async function layout(page) {
  return page.evaluate(() => {
    const out = [];
    const [w, h] = [window.innerWidth, window.innerHeight];
    for (const id of ["title", "caption", "view", "play", "frame", "frame-label", "help"]) {
      const e = document.getElementById(id);
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === "hidden") out.push(`#${id} is not shown`);
      else if (r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5) {
        out.push(`#${id} at (${r.left}, ${r.top})-(${r.right}, ${r.bottom}) is not inside the ${w}x${h} window`);
      }
    }
    const doc = document.scrollingElement;
    if (doc.scrollHeight > h || doc.scrollWidth > w) out.push(`the page scrolls (${doc.scrollWidth}x${doc.scrollHeight})`);
    const view = document.getElementById("view").getBoundingClientRect();
    if (view.height < 240) out.push(`the view is ${view.height} px high`);
    const canvas = document.getElementById("view");
    const ratio = window.devicePixelRatio || 1;
    if (Math.abs(canvas.width - Math.round(canvas.clientWidth * ratio)) > 1 || Math.abs(canvas.height - Math.round(canvas.clientHeight * ratio)) > 1) {
      out.push(`the canvas draws ${canvas.width}x${canvas.height} pixels, shown at ${canvas.clientWidth}x${canvas.clientHeight}`);
    }
    return out;
  });
}

for (const file of pages) {
  const name = path.basename(file, ".html");
  const context = await browser.newContext({ viewport: { width: SIZES[1][0], height: SIZES[1][1] } });
  // No network: every request other than the page itself fails (the page must need none).
  const requests = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:") && url.endsWith(path.basename(file))) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  page.on("console", (m) => m.type() === "error" && errors.push("console: " + m.text()));
  const problems = [];
  const started = Date.now();
  try {
    await page.goto(pathToFileURL(path.resolve(file)).href);
    await page.waitForSelector("body[data-state=drawn]", { timeout: 30000 });
    const frames = await page.evaluate(() => Number(document.getElementById("frame").max) + 1);
    const canvas = page.locator("#view");
    const first = await canvas.screenshot();
    fs.writeFileSync(path.join(shots, name + ".png"), first);
    const ink = await inkShare(page, first);
    if (!(ink > 0.02)) problems.push(`the canvas is blank (${(100 * ink).toFixed(2)}% drawn)`);
    if (frames > 1) {
      const before = Number(await page.evaluate(() => document.body.dataset.draws));
      await page.locator("#frame").fill(String(frames - 1));
      await page.waitForFunction((n) => Number(document.body.dataset.draws) > n, before);
      const shown = await page.evaluate(() => document.body.dataset.frame);
      if (shown !== String(frames - 1)) problems.push(`the slider asked for frame ${frames - 1}, the page shows ${shown}`);
      const label = await page.locator("#frame-label").textContent();
      if (!label.includes(`${frames} of ${frames}`)) problems.push(`the frame label is "${label}"`);
      fs.writeFileSync(path.join(shots, name + "-last.png"), await canvas.screenshot());
    }
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 4 });
    await page.mouse.up();
    const turned = await canvas.screenshot();
    if (turned.equals(await canvas.screenshot()) && turned.equals(first)) problems.push("dragging did not turn the view");
    fs.writeFileSync(path.join(shots, name + "-turned.png"), turned);
    for (const [width, height] of SIZES) {
      const before = Number(await page.evaluate(() => document.body.dataset.draws));
      const was = page.viewportSize();
      await page.setViewportSize({ width, height });
      // The page redraws when its view changes size.
      if (width !== was.width || height !== was.height) {
        await page.waitForFunction((n) => Number(document.body.dataset.draws) > n, before);
      }
      problems.push(...(await layout(page)).map((p) => `at ${width}x${height}: ${p}`));
      fs.writeFileSync(path.join(shots, `${name}-${width}x${height}.png`), await page.screenshot());
    }
    const reported = await page.evaluate(() => document.body.dataset.error);
    if (reported) problems.push("the viewer reported: " + reported);
    problems.push(...errors);
    if (requests.length) problems.push("it asked the network for " + requests.join(", "));
    console.log(`${problems.length ? "FAIL" : "ok"} ${name}: ${frames} frames, ${(100 * ink).toFixed(1)}% of the canvas drawn, ${Date.now() - started} ms`);
  } catch (e) {
    problems.push(String(e.message || e));
  }
  for (const p of problems) console.log(`  ${name}: ${p}`);
  failures += problems.length ? 1 : 0;
  await context.close();
}
await browser.close();
process.exit(failures ? 1 : 0);
