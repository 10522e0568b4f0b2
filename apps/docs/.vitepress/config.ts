import { defineConfig } from "vitepress";

/**
 * The documentation site: task guides (pages/guide), reference pages (pages/reference) and, under /api/, the API
 * reference that typedoc generates from the TSDoc (scripts/buildSite.mjs writes it beside the built pages, so the
 * guides' links to /api/ are checked by the site's Chromium test, not by VitePress).
 */
export default defineConfig({
  title: "swapintent",
  description:
    "Swap tokens across chains through a swap intent service: what the user signs is what the user was quoted.",
  srcDir: "pages",
  base: process.env.SWAPINTENT_DOCS_BASE ?? "/",
  lastUpdated: false,
  cleanUrls: false,
  // Links into the typedoc output: it is not a VitePress page, so VitePress cannot see it; the Chromium test follows them.
  ignoreDeadLinks: [/^\/api\//],
  markdown: { theme: { light: "github-light", dark: "github-dark" } },
  themeConfig: {
    search: { provider: "local" },
    nav: [
      { text: "Guides", link: "/guide/quote-and-intent" },
      { text: "Threat model", link: "/reference/threat-model" },
      { text: "API reference", link: "/api/index.html", target: "_self" },
    ],
    sidebar: [
      {
        text: "Guides",
        items: [
          { text: "Quote and intent with the client", link: "/guide/quote-and-intent" },
          { text: "Permit2 on EVM", link: "/guide/evm" },
          { text: "Tron", link: "/guide/tron" },
          { text: "Bitcoin", link: "/guide/bitcoin" },
          { text: "Solana", link: "/guide/solana" },
          { text: "Request signing", link: "/guide/request-signing" },
          { text: "Errors", link: "/guide/errors" },
          { text: "The sandbox in CI and on PostgreSQL", link: "/guide/sandbox" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "Threat model", link: "/reference/threat-model" },
          { text: "What each approval contains", link: "/reference/approvals" },
          { text: "Sizes and speeds", link: "/reference/measurements" },
          { text: "API reference", link: "/api/index.html", target: "_self" },
        ],
      },
    ],
  },
});
