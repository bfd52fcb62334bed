// Preloaded into the conformance CLI (node --require ./auth-preload.cjs ...).
//
// The suite has no option for credentials, but our MCP endpoint wants a bearer token on every
// request. Its MCP client talks through the global fetch(), the dns-rebinding scenario through
// undici's request() and the alpha's http-header-validation scenario through node:http's request();
// all three are wrapped here to add `Authorization: Bearer $EMDASH_CONFORMANCE_TOKEN` to requests
// for the server under test (EMDASH_CONFORMANCE_URL's origin) that carry none.
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
const suiteDir =
  process.env.EMDASH_CONFORMANCE_SUITE_DIR ??
  require("node:path").join(__dirname, "node_modules", "@modelcontextprotocol", "conformance");
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

// node:http request(url?, options, callback): the alpha suite builds raw requests with
// {hostname, port, path, headers}. Patch the module object, then sync the ESM named exports.
const http = require("node:http");
const originalHttpRequest = http.request;

function optionsTarget(options) {
  if (!options || typeof options !== "object" || options instanceof URL) return false;
  const host = options.hostname ?? options.host;
  if (!host) return false;
  return isTarget(`${options.protocol ?? "http:"}//${host}${options.port ? `:${options.port}` : ""}/`);
}

http.request = function httpRequestWithBearer(...args) {
  // Forms: (options[, cb]), (url[, options][, cb]); only plain option objects are rewritten.
  const index = typeof args[0] === "string" || args[0] instanceof URL ? 1 : 0;
  const options = args[index];
  const targeted = index === 1 ? isTarget(args[0]) : optionsTarget(options);
  if (targeted && options && typeof options === "object" && typeof options !== "function") {
    const headers = { ...(options.headers ?? {}) };
    const present = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
    if (!present) headers.Authorization = bearer;
    args[index] = { ...options, headers };
  } else if (targeted && index === 1) {
    args.splice(1, 0, { headers: { Authorization: bearer } });
  }
  return originalHttpRequest.apply(this, args);
};
require("node:module").syncBuiltinESMExports();
