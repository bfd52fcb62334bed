// Preloaded into the conformance CLI (node --require ./auth-preload.cjs ...).
//
// The suite has no option for credentials, but our MCP endpoint wants a bearer token on every
// request. Its MCP client talks through the global fetch() and the dns-rebinding scenario through
// undici's request(); both are wrapped here to add `Authorization: Bearer $EMDASH_CONFORMANCE_TOKEN`
// to requests for the server under test (EMDASH_CONFORMANCE_URL's origin) that carry none.
"use strict";

const token = process.env.EMDASH_CONFORMANCE_TOKEN;
const target = process.env.EMDASH_CONFORMANCE_URL;
if (!token || !target) {
  throw new Error("auth-preload: set EMDASH_CONFORMANCE_TOKEN and EMDASH_CONFORMANCE_URL");
}
const targetOrigin = new URL(target).origin;
const bearer = `Bearer ${token}`;

function isTarget(url) {
  try {
    return new URL(String(url)).origin === targetOrigin;
  } catch {
    return false;
  }
}

// fetch(input, init): Headers-aware, keeps whatever else the caller set.
const originalFetch = globalThis.fetch;
globalThis.fetch = function fetchWithBearer(input, init) {
  const url = input instanceof Request ? input.url : input;
  if (!isTarget(url)) return originalFetch(input, init);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has("authorization")) headers.set("authorization", bearer);
  return originalFetch(input, { ...init, headers });
};

// undici.request(url, options): patch the CommonJS exports before the suite's ESM `import` reads
// them (an ESM import of a CJS module snapshots module.exports when it is first linked).
const suiteDir = require("node:path").join(__dirname, "node_modules", "@modelcontextprotocol", "conformance");
const undiciPath = require.resolve("undici", { paths: [suiteDir] });
const undici = require(undiciPath);
const originalRequest = undici.request;
undici.request = function requestWithBearer(url, options = {}) {
  if (!isTarget(url)) return originalRequest.call(this, url, options);
  const headers = { ...(options.headers ?? {}) };
  const present = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
  if (!present) headers.Authorization = bearer;
  return originalRequest.call(this, url, { ...options, headers });
};
