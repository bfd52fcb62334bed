// Every tool's inputSchema and outputSchema compiles in Ajv's strict mode under JSON Schema 2020-12 and draft-07
// (SPEC 10, portable schemas), at every protocol version, read from a live server's tools/list; and none holds a
// type array (single-type dialects such as Gemini's and OpenAI strict mode refuse them).
//
//   EMDASH_CONFORMANCE_URL=http://127.0.0.1:PORT/_emdash/api/mcp EMDASH_CONFORMANCE_TOKEN=ec_pat_... \
//     node strict-schemas.mjs            (or: node strict-schemas.mjs --file tools.json, a saved tools array)
import { readFileSync } from "node:fs";
import Ajv07 from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const MODERN = "2026-07-28";

function ajv(Kind) {
  // strict: true is strictSchema, strictNumbers, strictTypes, strictTuples and strictRequired, all as errors;
  // allowUnionTypes stays off, so a type array fails to compile.
  const instance = new Kind({ strict: true, allErrors: true, validateFormats: true });
  addFormats(instance);
  return instance;
}

const DIALECTS = { "2020-12": ajv(Ajv2020), "draft-07": ajv(Ajv07) };

function typeArrays(node, where, found) {
  if (Array.isArray(node)) node.forEach((item, i) => typeArrays(item, `${where}[${i}]`, found));
  else if (node && typeof node === "object") {
    if (Array.isArray(node.type)) found.push(where);
    for (const [key, value] of Object.entries(node)) {
      if (!["enum", "const", "default", "examples", "required"].includes(key)) typeArrays(value, `${where}.${key}`, found);
    }
  }
  return found;
}

async function rpc(url, token, version, id, method, params, session) {
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${token}`,
  };
  let body;
  if (version === MODERN) {
    // The stateless revision: every request carries its version and client in _meta, its method in a header.
    headers["MCP-Protocol-Version"] = MODERN;
    headers["Mcp-Method"] = method;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientInfo": { name: "strict-schemas", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } };
  } else {
    if (method !== "initialize") headers["MCP-Protocol-Version"] = version;
    if (session) headers["Mcp-Session-Id"] = session;
    body = { jsonrpc: "2.0", id, method, params };
  }
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  const data = text.startsWith("event:") || text.startsWith("data:")
    ? JSON.parse(text.split("\n").find((line) => line.startsWith("data:")).slice(5))
    : JSON.parse(text);
  if (data.error) throw new Error(`${method} at ${version}: ${JSON.stringify(data.error)}`);
  return { result: data.result, session: response.headers.get("mcp-session-id") ?? session };
}

async function toolsAt(url, token, version) {
  let session;
  if (version !== MODERN) {
    const init = await rpc(url, token, version, 1, "initialize", {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "strict-schemas", version: "1.0.0" },
    });
    session = init.session;
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${token}`,
      "MCP-Protocol-Version": version,
      ...(session ? { "Mcp-Session-Id": session } : {}),
    };
    await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
  }
  const { result } = await rpc(url, token, version, 2, "tools/list", {}, session);
  if (result.nextCursor) throw new Error(`tools/list at ${version} is more than one page`);
  return result.tools;
}

function check(label, tools) {
  const failures = [];
  let compiled = 0;
  for (const tool of tools) {
    for (const key of ["inputSchema", "outputSchema"]) {
      const schema = tool[key];
      if (schema === undefined) continue;
      for (const where of typeArrays(schema, `${tool.name}.${key}`, [])) failures.push(`${where}: a type array`);
      for (const [dialect, instance] of Object.entries(DIALECTS)) {
        try {
          instance.compile(schema);
          compiled += 1;
        } catch (error) {
          failures.push(`${tool.name}.${key} (${dialect}): ${error.message}`);
        }
      }
    }
  }
  console.log(`    ${label}: ${tools.length} tools, ${compiled} schema compilations in strict mode, ${failures.length} failures`);
  for (const failure of failures) console.log(`      ${failure}`);
  return failures.length === 0;
}

async function main() {
  const fileAt = process.argv.indexOf("--file");
  if (fileAt !== -1) {
    return check(process.argv[fileAt + 1], JSON.parse(readFileSync(process.argv[fileAt + 1], "utf8")));
  }
  const url = process.env.EMDASH_CONFORMANCE_URL;
  const token = process.env.EMDASH_CONFORMANCE_TOKEN;
  if (!url || !token) throw new Error("EMDASH_CONFORMANCE_URL and EMDASH_CONFORMANCE_TOKEN are required");
  let ok = true;
  for (const version of VERSIONS) ok = check(version, await toolsAt(url, token, version)) && ok;
  return ok;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
