// The official TypeScript SDK client (@modelcontextprotocol/sdk) against a live EmDash server, pinned to each
// protocol version it speaks: list the tools, then call schema_list_collections, content_list and content_get.
// The SDK itself rejects a result whose structuredContent is missing or does not match the tool's outputSchema
// (the failure issue 12 reports for 2024-11-05 and 2025-03-26); each structuredContent is also validated here
// with Ajv, and outputSchema must be listed exactly for the versions that return structuredContent.
// The SDK 1.x does not speak 2026-07-28 (no server/discover); that revision is covered by the alpha suite and
// the Python SDK tests. Run by conformance/run.py with EMDASH_CONFORMANCE_URL and EMDASH_CONFORMANCE_TOKEN.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv from "ajv";

const url = new URL(process.env.EMDASH_CONFORMANCE_URL);
const token = process.env.EMDASH_CONFORMANCE_TOKEN;
const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const STRUCTURED = new Set(["2025-06-18", "2025-11-25"]);
const ajv = new Ajv({ strict: false, allErrors: true });
let failures = 0;

function check(ok, what) {
  console.log(`    ${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures += 1;
}

// The SDK always offers its newest version in initialize; pin another by rewriting that one request.
function pinnedFetch(version) {
  return async (input, init) => {
    if (init?.body && typeof init.body === "string" && init.body.includes('"method":"initialize"')) {
      const body = JSON.parse(init.body);
      body.params.protocolVersion = version;
      init = { ...init, body: JSON.stringify(body) };
    }
    return fetch(input, init);
  };
}

async function callAndValidate(client, schemas, version, name, args) {
  const result = await client.callTool({ name, arguments: args }); // throws on a structuredContent mismatch
  check(!result.isError, `${name} succeeds`);
  if (STRUCTURED.has(version)) {
    const valid = ajv.validate(schemas[name], result.structuredContent);
    check(valid, `${name} structuredContent matches its outputSchema ${valid ? "" : ajv.errorsText()}`);
  } else {
    check(result.structuredContent === undefined, `${name} has no structuredContent at ${version}`);
  }
  return result.structuredContent ?? JSON.parse(result.content[0].text);
}

async function smoke(version) {
  console.log(`==> TypeScript SDK client at ${version}`);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: pinnedFetch(version),
  });
  const client = new Client({ name: "emdash-sdk-smoke", version: "1.0.0" });
  await client.connect(transport);
  check(transport.protocolVersion === version, `negotiated ${transport.protocolVersion}`);
  const { tools } = await client.listTools();
  const schemas = Object.fromEntries(tools.filter((t) => t.outputSchema).map((t) => [t.name, t.outputSchema]));
  const listed = Object.keys(schemas).length;
  check(STRUCTURED.has(version) ? listed > 0 : listed === 0, `${tools.length} tools, ${listed} with outputSchema`);
  const collections = await callAndValidate(client, schemas, version, "schema_list_collections", {});
  const collection = collections.items[0].slug;
  const page = await callAndValidate(client, schemas, version, "content_list", { collection, limit: 3 });
  if (page.items.length > 0) {
    await callAndValidate(client, schemas, version, "content_get", { collection, id: page.items[0].id });
  } else {
    check(false, `the demo collection ${collection} has items`);
  }
  await client.close();
}

for (const version of VERSIONS) {
  try {
    await smoke(version);
  } catch (error) {
    check(false, `${version}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(failures ? `sdk-smoke: ${failures} failure(s)` : "sdk-smoke: all versions passed");
process.exit(failures ? 1 : 0);
