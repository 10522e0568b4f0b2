import { describe, expect, it } from "vitest";
import { parseDemoArgs } from "../src/args.js";

describe("parseDemoArgs --base-url", () => {
  it("plain http to a host other than loopback is refused, saying how to opt in", () => {
    for (const url of ["http://sandbox:8080", "http://10.0.0.5:8787", "http://swap.example"]) {
      expect(() => parseDemoArgs(["--base-url", url])).toThrow(/--allow-insecure-http/);
    }
  });

  it("https, loopback http, or --allow-insecure-http pass, and the opt-in reaches the options", () => {
    expect(parseDemoArgs(["--base-url", "https://swap.example"]).allowInsecureHttp).toBe(false);
    expect(parseDemoArgs(["--base-url", "http://127.0.0.1:8787"]).baseUrl).toBe("http://127.0.0.1:8787");
    expect(parseDemoArgs(["--base-url", "http://localhost:8787"]).allowInsecureHttp).toBe(false);
    const options = parseDemoArgs(["--base-url", "http://sandbox:8080", "--allow-insecure-http"]);
    expect(options).toMatchObject({ baseUrl: "http://sandbox:8080", allowInsecureHttp: true });
  });
});
