// The official TypeScript SDK clients against a live EmDash server: every tool listed by tools/list is called
// directly and as a task (2025-11-25: params.task, tasks/get until it ends, tasks/result; 2026-07-28: the tasks
// extension, tasks/get until it ends with the result inlined) under each protocol version,
// and every result is validated against the tool's outputSchema.
//
// - 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25: @modelcontextprotocol/sdk 1.x (the client most hosts ship),
//   pinned by rewriting the version it offers in `initialize`. Its callTool validates structuredContent against
//   the listed outputSchema itself and throws on a mismatch; the task calls go through client.request with the
//   `task` option and client.experimental.tasks.getTask/getTaskResult.
// - 2026-07-28: @modelcontextprotocol/client 2.x pinned with versionNegotiation {pin: "2026-07-28"} (server/discover,
//   the _meta envelope and the Mcp-Method/Mcp-Name headers). Its callTool validates like 1.x. In that revision
//   tasks are the io.modelcontextprotocol/tasks extension (SEP-2663): a task call declares the extension in its
//   request's _meta clientCapabilities and the server answers with a flat CreateTaskResult (resultType "task");
//   tasks/get (the result inlined once the task ends) goes through the client's own extension-method path,
//   client.request with an explicit result schema. Client 2.4's result decoder refuses any resultType other
//   than "complete" and "input_required" (UnsupportedResultType, without the body), so the one request that
//   creates a task is a plain HTTP POST carrying the same envelope and headers (createModernTask).
//
// Every payload is also validated here with Ajv (JSON Schema 2020-12): structuredContent where the version has
// it, and the text payload against the outputSchema listed at 2025-11-25 where it does not (2024-11-05 and
// 2025-03-26 list no outputSchema and must send no structuredContent). Before 2025-11-25 `params.task` is ignored
// (SPEC 5.6), so a "task" call there must answer with the tool result at once.
//
// Run by conformance/run.py with EMDASH_CONFORMANCE_URL, EMDASH_CONFORMANCE_TOKEN (every scope) and
// EMDASH_SDK_STORAGE_KEYS (files placed in the server's media storage, for media_create). Exit status 1 on any
// failure; SDK_VERSIONS=2025-11-25,2026-07-28 narrows the versions.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { isDeepStrictEqual } from "node:util";
import Ajv2020 from "ajv/dist/2020.js";
import { BUILDERS, Fixtures, coverage } from "./tool-args.mjs";

const url = new URL(process.env.EMDASH_CONFORMANCE_URL);
const token = process.env.EMDASH_CONFORMANCE_TOKEN;
const storageKeys = (process.env.EMDASH_SDK_STORAGE_KEYS ?? "").split(",").filter(Boolean);
const ALL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const VERSIONS = process.env.SDK_VERSIONS ? process.env.SDK_VERSIONS.split(",") : ALL_VERSIONS;
const MODERN = "2026-07-28";
const RELATED = "io.modelcontextprotocol/related-task";
const TASK_BATCH = 10; // below the server's per-user limit on working tasks (TASKS_MAX_WORKING, 20)
const TASK_TIMEOUT_MS = 120000;
const RUN_ID = Date.now().toString(36); // keeps fixture names unique when the database is reused
const auth = { Authorization: `Bearer ${token}` };
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map();
let failures = 0;

const structured = (version) => version >= "2025-06-18";
const tasks = (version) => version >= "2025-11-25";
const message = (error) => (error instanceof Error ? error.message : String(error));

function fail(what) {
  failures += 1;
  console.log(`    FAIL ${what}`);
}

function validator(name, schema) {
  const key = JSON.stringify(schema);
  if (!validators.has(key)) validators.set(key, ajv.compile(schema));
  return validators.get(key);
}

// The 1.x client offers its newest version in initialize; pin another by rewriting that one request.
function pinnedFetch(version) {
  return async (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"method":"initialize"')) {
      const body = JSON.parse(init.body);
      body.params.protocolVersion = version;
      init = { ...init, body: JSON.stringify(body) };
    }
    return fetch(input, init);
  };
}

const TASKS_EXT = "io.modelcontextprotocol/tasks";
const CLIENT_CAPS = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO = { name: "emdash-sdk-clients", version: "1.0.0" };
// Per-request opt-in to the tasks extension: the client's envelope spreads params._meta over its own keys.
const withTasks = (params) => ({ ...params, _meta: { [CLIENT_CAPS]: { extensions: { [TASKS_EXT]: {} } } } });

// The result schema for tasks/get (a Standard Schema, which client.request needs for an extension method).
const DetailedTask = {
  "~standard": {
    version: 1,
    vendor: "emdash-sdk-clients",
    validate: (value) =>
      typeof value?.taskId === "string" && typeof value?.status === "string"
        ? { value }
        : { issues: [{ message: `not a DetailedTask: ${JSON.stringify(value)}` }] },
  },
};

let nextRawId = 1;
// The task-creating tools/call at 2026-07-28, as the 2.x transport would send it (see the header comment).
async function createModernTask(name, args) {
  const params = {
    name,
    arguments: args,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      [CLIENT_CAPS]: { extensions: { [TASKS_EXT]: {} } },
    },
  };
  const response = await fetch(url, {
    method: "POST",
    headers: {
      ...auth,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": MODERN,
      "Mcp-Method": "tools/call",
      "Mcp-Name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: `task-${nextRawId++}`, method: "tools/call", params }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`HTTP ${response.status} ${body.error.code} ${body.error.message}`);
  return body.result;
}

// One connected SDK client at one version: direct calls, task calls, task polling.
async function connect(version) {
  if (version === MODERN) {
    const transport = new TransportV2(url, { requestInit: { headers: auth } });
    const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(transport);
    return {
      negotiated: client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion,
      capabilities: client.getServerCapabilities() ?? {},
      listTools: () => client.listTools(),
      call: (name, args) => client.callTool({ name, arguments: args }),
      callTask: (name, args) => createModernTask(name, args),
      getTask: (taskId) => client.request({ method: "tasks/get", params: withTasks({ taskId }) }, DetailedTask),
      close: () => client.close(),
    };
  }
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: auth },
    fetch: pinnedFetch(version),
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  const resultSchema = tasks(version) ? CreateTaskResultSchema : CallToolResultSchema;
  return {
    negotiated: transport.protocolVersion,
    capabilities: client.getServerCapabilities() ?? {},
    listTools: () => client.listTools(),
    call: (name, args) => client.callTool({ name, arguments: args }),
    callTask: (name, args, ttl) =>
      client.request({ method: "tools/call", params: { name, arguments: args } }, resultSchema, { task: { ttl } }),
    getTask: (taskId) => client.experimental.tasks.getTask(taskId),
    taskResult: (taskId) => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema),
    close: () => client.close(),
  };
}

class Run {
  constructor(version, session, tools, reference) {
    this.version = version;
    this.session = session;
    this.tools = tools; // name -> listed definition
    this.reference = reference; // name -> outputSchema listed at 2025-11-25
    this.exercised = { direct: new Set(), task: new Set() };
  }

  // A tool result must be a success whose payload validates; returns the payload.
  check(name, result, how) {
    if (result.isError) throw new Error(`${how} ${name} failed: ${result.content?.[0]?.text}`);
    const text = JSON.parse(result.content[0].text);
    let payload = text;
    if (structured(this.version)) {
      if (!this.tools[name].outputSchema) throw new Error(`${name} lists no outputSchema at ${this.version}`);
      if (result.structuredContent === undefined) throw new Error(`${how} ${name}: no structuredContent`);
      // Deep equality, not key order: a task result stored in PostgreSQL's jsonb comes back with its keys sorted.
      if (!isDeepStrictEqual(result.structuredContent, text)) {
        throw new Error(`${how} ${name}: structuredContent differs from the text content`);
      }
      payload = result.structuredContent;
    } else if (result.structuredContent !== undefined || this.tools[name].outputSchema) {
      throw new Error(`${name}: structuredContent or outputSchema at ${this.version}`);
    }
    const schema = this.tools[name].outputSchema ?? this.reference[name];
    const validate = validator(name, schema);
    if (!validate(payload)) throw new Error(`${how} ${name}: payload does not match outputSchema: ${ajv.errorsText(validate.errors)}`);
    return payload;
  }

  async direct(name, args) {
    const payload = this.check(name, await this.session.call(name, args), "direct");
    this.exercised.direct.add(name);
    return payload;
  }

  // Start a task; before 2025-11-25 the server ignores `task` and answers with the result itself.
  async startTask(name, args) {
    const answer = await this.session.callTask(name, args, 300000);
    if (!tasks(this.version)) {
      if (answer.task) throw new Error(`${name}: a task was created at ${this.version}`);
      this.check(name, answer, "task-ignored");
      this.exercised.task.add(name);
      return null;
    }
    const task = this.version === MODERN ? answer : answer.task;
    if (this.version === MODERN && answer.resultType !== "task") throw new Error(`${name}: resultType is not "task"`);
    if (!task?.taskId || task.status !== "working") throw new Error(`${name}: not a CreateTaskResult: ${JSON.stringify(answer)}`);
    return task.taskId;
  }

  async finishTask(name, taskId) {
    const deadline = Date.now() + TASK_TIMEOUT_MS;
    let task = await this.session.getTask(taskId);
    while (task.status === "working" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollInterval ?? task.pollIntervalMs ?? 500, 500)));
      task = await this.session.getTask(taskId);
    }
    if (task.status !== "completed") throw new Error(`task ${name}: ended ${task.status} ${task.statusMessage ?? ""}`);
    let result;
    if (this.version === MODERN) {
      result = task.result; // inlined by tasks/get; the taskId is at its root, so no related-task _meta
      if (!result || result._meta?.[RELATED]) throw new Error(`task ${name}: tasks/get lacks the result or repeats ${RELATED}`);
    } else {
      result = await this.session.taskResult(taskId);
      if (result._meta?.[RELATED]?.taskId !== taskId) throw new Error(`task ${name}: tasks/result lacks ${RELATED}`);
    }
    this.check(name, result, "task");
    this.exercised.task.add(name);
  }

  async guarded(what, fn) {
    try {
      return await fn();
    } catch (error) {
      fail(`${this.version} ${what}: ${message(error)}`);
      return undefined;
    }
  }
}

async function listReference() {
  const session = await connect("2025-11-25");
  const { tools } = await session.listTools();
  await session.close();
  return Object.fromEntries(tools.map((t) => [t.name, t.outputSchema]));
}

function checkListing(version, session, tools) {
  const names = tools.map((t) => t.name);
  const { missing, stale } = coverage(names);
  for (const name of missing) {
    fail(`${version}: tool ${name} has no argument builder: add one to conformance/tool-args.mjs (BUILDERS)`);
  }
  for (const name of stale) fail(`${version}: conformance/tool-args.mjs has a builder for ${name}, which is not listed`);
  if (session.negotiated !== version) fail(`${version}: negotiated ${session.negotiated}`);
  const listed = tools.filter((t) => t.outputSchema).length;
  if (listed !== (structured(version) ? tools.length : 0)) fail(`${version}: ${listed} of ${tools.length} tools list an outputSchema`);
  if (version === MODERN) {
    // 2026-07-28 deleted Tool.execution (taskSupport): the extension's capability is all there is to check
    if (!session.capabilities.extensions?.[TASKS_EXT]) fail(`${version}: the ${TASKS_EXT} extension is not advertised`);
  } else if (tasks(version)) {
    if (!session.capabilities.tasks?.requests?.tools?.call) fail(`${version}: no tasks capability for tools/call`);
    const without = tools.filter((t) => t.execution?.taskSupport !== "optional").map((t) => t.name);
    if (without.length) fail(`${version}: execution.taskSupport is not "optional" for ${without.join(", ")}`);
  }
  return names.filter((name) => name in BUILDERS);
}

async function runVersion(version, reference) {
  const started = Date.now();
  console.log(`==> ${version}: connecting`);
  const session = await connect(version);
  const { tools } = await session.listTools();
  const names = checkListing(version, session, tools);
  const run = new Run(version, session, Object.fromEntries(tools.map((t) => [t.name, t])), reference);
  const fx = new Fixtures((name, args) => run.direct(name, args), `${RUN_ID}v${version.replaceAll("-", "")}`, storageKeys);
  await fx.setup();

  for (const name of names) {
    await run.guarded(`direct ${name}`, async () => run.direct(name, await BUILDERS[name](fx)));
  }
  console.log(`    ${run.exercised.direct.size}/${names.length} tools called directly`);

  for (let i = 0; i < names.length; i += TASK_BATCH) {
    const batch = names.slice(i, i + TASK_BATCH);
    const started = [];
    for (const name of batch) {
      const taskId = await run.guarded(`task ${name}`, async () => run.startTask(name, await BUILDERS[name](fx)));
      if (taskId) started.push([name, taskId]);
    }
    await Promise.all(started.map(([name, taskId]) => run.guarded(`task ${name}`, () => run.finishTask(name, taskId))));
  }
  const how = tasks(version) ? "as tasks" : "with params.task (ignored before 2025-11-25)";
  console.log(`    ${run.exercised.task.size}/${names.length} tools called ${how}`);

  for (const mode of ["direct", "task"]) {
    const notCalled = tools.map((t) => t.name).filter((name) => !run.exercised[mode].has(name));
    if (notCalled.length) fail(`${version}: not exercised (${mode}): ${notCalled.join(", ")}`);
  }
  await session.close();
  console.log(`    ${version} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

let reference = {};
try {
  reference = await listReference();
} catch (error) {
  fail(`listing the reference output schemas at 2025-11-25: ${message(error)}`);
}
for (const version of VERSIONS) {
  try {
    await runVersion(version, reference);
  } catch (error) {
    fail(`${version}: ${message(error)}`);
  }
}
console.log(failures ? `sdk-clients: ${failures} failure(s)` : `sdk-clients: every tool passed under ${VERSIONS.join(", ")}`);
process.exit(failures ? 1 : 0);
