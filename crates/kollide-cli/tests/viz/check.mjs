// The viewer pages of `kollide viz` in a real browser (headless Chromium via playwright-core).
// Usage: KOLLIDE_CHROMIUM=/usr/bin/chromium KOLLIDE_PLAYWRIGHT_DIR=DIR node check.mjs SHOTS_DIR PAGE.html...
// (playwright-core is loaded from DIR/node_modules, or found by node's own lookup without it).
// For each page: open it from the file system with the network cut off, wait for the scene
// to be drawn, check that no error was reported (page errors, console errors, the viewer's
// own data-error), take a screenshot and count its pixels that are not the background, move
// the slider to the last frame and check that the page drew that frame, then drag to orbit and
// check that the picture changed. Prints one line per page; exits 1 if any check fails.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";
import fs from "node:fs";

const { chromium } = process.env.KOLLIDE_PLAYWRIGHT_DIR
  ? createRequire(path.join(path.resolve(process.env.KOLLIDE_PLAYWRIGHT_DIR), "package.json"))("playwright-core")
  : await import("playwright-core");
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

for (const file of pages) {
  const name = path.basename(file, ".html");
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
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
