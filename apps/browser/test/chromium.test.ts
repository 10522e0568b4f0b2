import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chromiumExecutablePath, launchChromium } from "./chromium.js";

describe("Chromium from npm (@sparticuz/chromium)", () => {
  it("unpacks an executable once into a versioned cache and returns the same path after", async () => {
    const first = await chromiumExecutablePath();
    expect(first).toMatch(/node_modules\/\.cache\/chromium-\d+\.\d+\.\d+\/chromium$/);
    const stat = statSync(first);
    expect(stat.isFile()).toBe(true);
    expect(stat.mode & 0o111).not.toBe(0);
    expect(stat.size).toBeGreaterThan(100_000_000);
    expect(await chromiumExecutablePath()).toBe(first);
  });

  it("starts headless without any system browser and runs a page's JavaScript", async () => {
    const browser = await launchChromium();
    try {
      expect(browser.version()).toMatch(/^\d+\./);
      const page = await browser.newPage();
      await page.setContent("<script>document.title = String(2n ** 64n)</script>");
      expect(await page.title()).toBe("18446744073709551616");
    } finally {
      await browser.close();
    }
  });

  it("rejects when the browser cannot start (the browser test then fails every test with it, never skips)", async () => {
    await expect(launchChromium({ executablePath: "/nonexistent/chromium" })).rejects.toThrow(/chromium/i);
  });
});
